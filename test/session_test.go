package test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden MCP sessions in testdata/sessions")

// Golden MCP sessions: each testdata/sessions/*.txt holds the client's
// JSON-RPC lines (-- client --) and the server's answers (-- server --),
// one message a line. The test replays the client lines against `juju
// stdio` on a fixed workspace and compares the answers, with the workspace
// path written as $ROOT. Run with -update to rewrite them after a deliberate
// change, and read the diff.
func TestGoldenSessions(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "sessions", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no sessions in testdata/sessions")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sections := splitSections(string(data))
			client := nonEmptyLines(sections["client"])
			root := goldenWorkspace(t)
			got := replay(t, root, client)
			for i := range got {
				got[i] = strings.ReplaceAll(got[i], root, "$ROOT")
			}
			if *update {
				out := "-- client --\n" + strings.Join(client, "\n") + "\n-- server --\n" + strings.Join(got, "\n") + "\n"
				if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := nonEmptyLines(sections["server"])
			if len(got) != len(want) {
				t.Fatalf("%d answers, golden has %d (run with -update after a deliberate change)\n%s", len(got), len(want), strings.Join(got, "\n"))
			}
			for i := range want {
				if canonical(t, got[i]) != canonical(t, want[i]) {
					t.Errorf("answer %d differs (run with -update after a deliberate change)\n got: %s\nwant: %s", i+1, got[i], want[i])
				}
			}
		})
	}
}

// goldenWorkspace is the fixed workspace the sessions run on, with fixed
// modification times.
func goldenWorkspace(t *testing.T) string {
	root := workspace(t, map[string]string{
		"README.md":        "# demo\n\nA small project.\n",
		"src/main.go":      "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
		"src/main_test.go": "package main\n",
		".env":             "TOKEN=secret\n",
		".gitignore":       "dist/\n",
		"dist/app":         "built\n",
	})
	stamp := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error {
		return os.Chtimes(p, stamp, stamp)
	})
	return root
}

// replay sends each client line and collects one answer for every request
// (a line with an id); notifications get none.
func replay(t *testing.T, root string, client []string) []string {
	t.Helper()
	home := t.TempDir()
	os.Symlink(sharedCache, filepath.Join(home, "cache"))
	cmd := exec.Command(jujuBin, "stdio", "--root", root)
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { in.Close(); cmd.Wait() }()
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var got []string
	for _, line := range client {
		io.WriteString(in, line+"\n")
		var head struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal([]byte(line), &head) == nil && len(head.ID) == 0 {
			continue // a notification: no answer
		}
		// A request, or a malformed line (answered with a parse error).
		if !sc.Scan() {
			t.Fatalf("no answer to %s", line)
		}
		got = append(got, sc.Text())
	}
	return got
}

func splitSections(s string) map[string]string {
	out := map[string]string{}
	var name string
	for _, line := range strings.SplitAfter(s, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") {
			name = strings.TrimSuffix(strings.TrimPrefix(trimmed, "-- "), " --")
			continue
		}
		out[name] += line
	}
	return out
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// canonical re-encodes a JSON line with sorted keys.
func canonical(t *testing.T, line string) string {
	var v any
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return line
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return b.String()
}

package test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden MCP sessions in testdata/sessions")

// Golden MCP sessions: each testdata/sessions/*.txt is a txtar-style file
// of sections, one message a line:
//
//	-- args --         optional: flags for `juju stdio --root $ROOT`, e.g. --mode inspect
//	-- config.toml --  optional: the config file, put in $JUJU_HOME/config
//	-- client --       the client's JSON-RPC lines
//	-- server --       the server's lines
//
// The test replays the client lines against `juju stdio` on a fixed
// workspace with a fresh JUJU_HOME and compares the server's lines. Every
// client line with an id gets one server line: a request its answer, and a
// client's answer to a server request (elicitation) the line it unblocks.
// What varies from run to run is scrubbed (see scrubber): the workspace as
// $ROOT, times, durations, approval ids as $APPROVAL1, $APPROVAL2 … A
// client line may use such a placeholder, and gets the value it stands for
// in this run. Run with -update to rewrite the files after a deliberate
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
			args := strings.Fields(sections["args"])
			root := goldenWorkspace(t)
			home := t.TempDir()
			if cfg, ok := sections["config.toml"]; ok {
				writeConfig(t, home, cfg)
			}
			got := replay(t, newScrubber(root, home), home, root, args, client)
			if *update {
				var b strings.Builder
				for _, name := range []string{"args", "config.toml"} {
					if s, ok := sections[name]; ok {
						fmt.Fprintf(&b, "-- %s --\n%s", name, s)
					}
				}
				fmt.Fprintf(&b, "-- client --\n%s\n-- server --\n%s\n", strings.Join(client, "\n"), strings.Join(got, "\n"))
				if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
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

// goldenStamp is the modification time of every file of the golden
// workspace; it is kept as is, every other time is scrubbed.
var goldenStamp = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// goldenWorkspace is the fixed workspace the sessions run on, with fixed
// modification times and modes (whatever the umask).
func goldenWorkspace(t *testing.T) string {
	root := workspace(t, map[string]string{
		"README.md":        "# demo\n\nA small project.\n",
		"src/main.go":      "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
		"src/main_test.go": "package main\n",
		".env":             "TOKEN=secret\n",
		".gitignore":       "dist/\n",
		"dist/app":         "built\n",
	})
	filepath.WalkDir(root, func(p string, d iofs.DirEntry, _ error) error {
		if d.IsDir() {
			os.Chmod(p, 0o755)
		} else {
			os.Chmod(p, 0o644)
		}
		return os.Chtimes(p, goldenStamp, goldenStamp)
	})
	return root
}

// writeConfig writes body as the config file of the JUJU_HOME home.
func writeConfig(t *testing.T, home, body string) {
	t.Helper()
	writeFile(t, filepath.Join(home, "config", "config.toml"), body)
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// answerTimeout bounds the wait for one server line.
const answerTimeout = 60 * time.Second

// replay runs juju stdio with JUJU_HOME home on root, sends each client
// line (its placeholders replaced) and collects, scrubbed, one server line
// for every client line with an id; notifications get none.
func replay(t *testing.T, sc *scrubber, home, root string, args, client []string) []string {
	t.Helper()
	os.Symlink(sharedCache, filepath.Join(home, "cache"))
	cmd := exec.Command(jujuBin, append([]string{"stdio", "--root", root}, args...)...)
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := func() string { in.Close(); cmd.Wait(); return stderr.String() }
	lines := make(chan string)
	go func() {
		r := bufio.NewScanner(out)
		r.Buffer(make([]byte, 1<<20), 16<<20)
		for r.Scan() {
			lines <- r.Text()
		}
		close(lines)
	}()
	var got []string
	for _, line := range client {
		line, err := sc.fill(line)
		if err != nil {
			stop()
			t.Fatal(err)
		}
		io.WriteString(in, line+"\n")
		var head struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal([]byte(line), &head) == nil && len(head.ID) == 0 {
			continue // a notification: no answer
		}
		// A request, a client's answer, or a malformed line (answered
		// with a parse error).
		select {
		case answer, ok := <-lines:
			if !ok {
				t.Fatalf("no answer to %s\nstderr:\n%s", line, stop())
			}
			got = append(got, sc.scrub(answer))
		case <-time.After(answerTimeout):
			cmd.Process.Kill()
			t.Fatalf("no answer to %s in %v\nstderr:\n%s", line, answerTimeout, stop())
		}
	}
	stop()
	return got
}

// scrubber turns what varies between runs into stable text: the workspace
// and JUJU_HOME paths, times (but goldenStamp), durations, and values
// that are new in each run (approval ids) into numbered placeholders it
// remembers, so that a client line can name them.
type scrubber struct {
	paths  *strings.Replacer
	values map[string]string // placeholder → value
	order  []string          // placeholders, in order of appearance
	count  map[string]int    // kind → how many so far
}

func newScrubber(root, home string) *scrubber {
	return &scrubber{
		paths:  strings.NewReplacer(root, "$ROOT", home, "$JUJU_HOME"),
		values: map[string]string{},
		count:  map[string]int{},
	}
}

// captures find the values that get numbered placeholders: the first
// group of each match, named by kind.
var captures = []struct {
	kind string
	re   *regexp.Regexp
}{
	// Approval ids: eight base32 letters and digits (approval.NewID).
	{"APPROVAL", regexp.MustCompile(`\(id ([a-z2-7]{8})\)`)},
	{"APPROVAL", regexp.MustCompile(`juju approvals approve ([a-z2-7]{8})`)},
	{"APPROVAL", regexp.MustCompile(`"id":"([a-z2-7]{8})","tool"`)},
	// Call ids: the audit's id of each call (callid.go).
	{"CALL", regexp.MustCompile(`"callId":"([^"]+)"`)},
	// The random word on the fence lines around output juju did not
	// write (newFence in plugins/exec), its < JSON-escaped or not.
	{"FENCE", regexp.MustCompile(`(?:<<<|\\u003c\\u003c\\u003c)(?:end of )?(?:stdout|stderr|web content|git output) ([0-9a-f]{16})`)},
}

var (
	rfc3339 = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)
	// Durations as time.Duration prints them, after the words that
	// introduce them ("exit 0 in 6ms", "running for 1.2s", "after 5ms") or
	// in a tab-separated column (list_jobs; a JSON-escaped \t).
	duration   = regexp.MustCompile(`(\b(?:in|for|after) |\\t)(?:\d+h)?(?:\d+m)?\d+(?:\.\d+)?(?:ns|µs|ms|s)\b`)
	durationMs = regexp.MustCompile(`"(durationMs|wallMs)":\d+`)
	stamp      = goldenStamp.Format(time.RFC3339)
)

// scrub returns the server line with what varies replaced.
func (s *scrubber) scrub(line string) string {
	line = s.paths.Replace(line)
	for _, c := range captures {
		for _, m := range c.re.FindAllStringSubmatch(line, -1) {
			s.remember(c.kind, m[1])
		}
	}
	for _, p := range s.order {
		line = strings.ReplaceAll(line, s.values[p], p)
	}
	line = rfc3339.ReplaceAllStringFunc(line, func(t string) string {
		if t == stamp {
			return t
		}
		return "$TIME"
	})
	line = duration.ReplaceAllString(line, "$1$$DUR")
	return durationMs.ReplaceAllString(line, `"$1":"$$DUR"`)
}

func (s *scrubber) remember(kind, value string) {
	for _, p := range s.order {
		if s.values[p] == value {
			return
		}
	}
	s.count[kind]++
	p := fmt.Sprintf("$%s%d", kind, s.count[kind])
	s.values[p] = value
	s.order = append(s.order, p)
}

var placeholder = regexp.MustCompile(`\$[A-Z]+[0-9]+`)

// fill replaces the placeholders of a client line by their values.
func (s *scrubber) fill(line string) (string, error) {
	var err error
	line = placeholder.ReplaceAllStringFunc(line, func(p string) string {
		v, ok := s.values[p]
		if !ok {
			err = fmt.Errorf("the client line names %s, which no server line has shown yet: %s", p, line)
			return p
		}
		return v
	})
	return line, err
}

func splitSections(s string) map[string]string {
	out := map[string]string{}
	var name string
	for _, line := range strings.SplitAfter(s, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") {
			name = strings.TrimSuffix(strings.TrimPrefix(trimmed, "-- "), " --")
			out[name] += ""
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

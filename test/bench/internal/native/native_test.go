package native

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func workspace(t *testing.T, files map[string]string) *FS {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		full := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestTools(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	f := workspace(t, map[string]string{
		"a.txt":         "alpha\nbeta\n",
		"b.txt":         "no newline",
		"long.txt":      long.String(),
		"bin.dat":       "\x00\x01\x02",
		"src/x_test.go": "package x\n",
		"src/x.go":      "package x\n",
	})
	for _, c := range []struct {
		name, tool, args string
		want             string // the text, or a prefix ending in "…"
		code             string // a tool error's code
	}{
		{"whole", "read_file", `{"path":"a.txt"}`, "alpha\nbeta\n", ""},
		{"no final newline", "read_file", `{"path":"b.txt"}`, "no newline\n", ""},
		{"numbered range", "read_file", `{"path":"a.txt","offset":2,"limit":1,"numbered":true}`, "     2\tbeta\n", ""},
		{"part", "read_file", `{"path":"a.txt","limit":1}`, "alpha\n\n[Showing lines 1-1 of 2. Call read_file with offset 2 to read on.]\n", ""},
		{"truncated", "read_file", `{"path":"long.txt"}`, "line 1\n…", ""},
		{"binary", "read_file", `{"path":"bin.dat"}`, "bin.dat is a binary file (3 B); its bytes are not shown.", ""},
		{"past the end", "read_file", `{"path":"a.txt","offset":9}`, "", "INVALID_ARGUMENT"},
		{"missing", "read_file", `{"path":"nope"}`, "", "NOT_FOUND"},
		{"outside", "read_file", `{"path":"../../../../etc/hostname"}`, "", "PATH_DENIED"},
		{"several", "read_files", `{"paths":["a.txt","nope","b.txt"]}`, "==> a.txt <==\nalpha\nbeta\n\n==> nope <==\nNOT_FOUND: …", ""},
		{"glob", "glob_files", `{"pattern":"**/*_test.go"}`, "src/x_test.go\n[1 match.]\n", ""},
		{"list", "list_directory", `{}`, ". (5 entries)\na.txt  (11 B)\n…", ""},
		{"info", "file_info", `{"path":"a.txt"}`, "path: a.txt\ntype: file\nsize: 11 bytes (11 B)\n…", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := f.Call(c.tool, json.RawMessage(c.args))
			if c.code != "" {
				if e, ok := err.(*Error); !ok || e.Code != c.code {
					t.Fatalf("got %v, want a %s error", err, c.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if prefix, ok := strings.CutSuffix(c.want, "…"); ok {
				if !strings.HasPrefix(res.Text, prefix) {
					t.Fatalf("text %q does not begin with %q", res.Text, prefix)
				}
			} else if res.Text != c.want {
				t.Fatalf("text %q, want %q", res.Text, c.want)
			}
			if !json.Valid(res.Structured) {
				t.Fatalf("structured content is not JSON: %s", res.Structured)
			}
		})
	}
}

func TestTruncationSaysHowToReadOn(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	f := workspace(t, map[string]string{"long.txt": long.String()})
	res, err := f.ReadFile(ReadFileArgs{Path: "long.txt"})
	if err != nil {
		t.Fatal(err)
	}
	want := `[Truncated: Showing lines 1-2000 of 2500 (a read stops at 2000 lines or 100.0 KB). Call read_file with path "long.txt" and offset 2001 to read the rest.]`
	if !strings.HasSuffix(res.Text, "\n"+want+"\n") {
		t.Fatalf("notice missing: %q", res.Text[len(res.Text)-200:])
	}
}

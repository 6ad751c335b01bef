package test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A path written with backslashes, as on Windows, means folders to the
// model but is one name on Unix: write_file "src\main.go" made a file of
// that name at the top of the root, and the model went on as if
// src/main.go held it. Every tool that makes a name refuses one holding a
// backslash with the path to pass instead, and changes nothing; a name
// that already holds one is edited and moved as it is, a rollback puts it
// back, and a folder so named takes new files.
func TestNewNamesWithBackslashesAreRefused(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n", `old\name.txt`: "kept\n"})
	before := pathsBelow(t, root)
	s := start(t, root, "--mode", "trusted")
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"write_file", map[string]any{"path": `src\main.go`, "content": "package main\n"}, `pass "src/main.go"`},
		{"write_file", map[string]any{"path": `src\sub/main.go`, "content": "package main\n"}, `a folder named "src\\sub"`},
		{"edit_file", map[string]any{"path": `new\e.txt`, "oldString": "", "newString": "x\n"}, `pass "new/e.txt"`},
		{"make_directory", map[string]any{"path": `foo\bar`}, `a folder named "foo\\bar"`},
		{"move_path", map[string]any{"path": "a.txt", "destination": `docs\a.txt`}, `pass "docs/a.txt"`},
		{"apply_patch", map[string]any{"patch": "--- /dev/null\n+++ b/x\\y.txt\n@@ -0,0 +1 @@\n+hi\n"}, `pass "x/y.txt"`},
		{"preview_changes", map[string]any{"operations": []any{map[string]any{"op": "write", "path": `p\q.txt`, "content": "x\n"}}}, `pass "p/q.txt"`},
	} {
		msg := s.fail(c.tool, c.args, "INVALID_ARGUMENT")
		if !strings.Contains(msg, c.want) || !strings.Contains(msg, "separates folders with / only") {
			t.Errorf("%s %v: the message lacks %q: %s", c.tool, c.args, c.want, msg)
		}
	}
	if after := pathsBelow(t, root); strings.Join(after, "|") != strings.Join(before, "|") {
		t.Fatalf("refused calls changed the workspace: %q, was %q", after, before)
	}
	// The existing name is the owner's: it is edited, moved away, and
	// the move undone, as any other.
	s.ok("edit_file", map[string]any{"path": `old\name.txt`, "oldString": "kept", "newString": "edited"})
	moved := structured(t, s.call("move_path", map[string]any{"path": `old\name.txt`, "destination": "plain.txt"}))
	s.ok("rollback_changes", map[string]any{"changeId": moved["changeId"]})
	if b, err := os.ReadFile(filepath.Join(root, `old\name.txt`)); err != nil || string(b) != "edited\n" {
		t.Fatalf(`old\name.txt after the move's rollback: %q, %v`, b, err)
	}
	// A folder whose name holds one already takes new files.
	if err := os.Mkdir(filepath.Join(root, `dir\x`), 0o755); err != nil {
		t.Fatal(err)
	}
	s.ok("write_file", map[string]any{"path": `dir\x/new.txt`, "content": "new\n"})
	if disk(t, root, `dir\x/new.txt`) != "new\n" {
		t.Fatal(`dir\x/new.txt was not written`)
	}
}

// pathsBelow lists every path below root, sorted.
func pathsBelow(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if rel, _ := filepath.Rel(root, p); rel != "." {
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

package test

import (
	"fmt"
	"strings"
	"testing"
)

// An INVALID_ARGUMENT message names the client's unknown arguments, but
// only so many and each cut short: a call of one name 300 KB long, or of
// 50,000 made-up names, was answered with 74 KB of them, the model's whole
// result spent on its own junk and the cut note in place of what to do.
func TestUnknownArgumentNamesAreBounded(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"a.txt": "a\n"}))
	long := strings.Repeat("k", 300_000)
	many := map[string]any{"path": "a.txt"}
	for i := range 50_000 {
		many[fmt.Sprintf("u%06d", i)] = 1
	}
	for _, c := range []struct {
		name string
		args map[string]any
		want []string
	}{
		{"one long name", map[string]any{"path": "a.txt", long: 1}, []string{`unknown argument "` + long[:64] + `…"`}},
		{"many names", many, []string{`unknown argument "u000000"`, `unknown argument "u000007", and 49992 more unknown; read_file takes only: path,`}},
		{"a long name nested", map[string]any{"todos": []any{map[string]any{"content": "a", "status": "pending", long: 1}}}, []string{`unknown argument "todos[0].` + long[:64] + `…"; "todos[0]" takes only: id, content`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := s.with(t)
			tool := "read_file"
			if _, ok := c.args["todos"]; ok {
				tool = "todo_write"
			}
			msg := s.fail(tool, c.args, "INVALID_ARGUMENT")
			if len(msg) > 2000 || strings.Contains(msg, "juju cut") {
				t.Errorf("the message is %d bytes: %.300s…", len(msg), msg)
			}
			for _, w := range append(c.want, "Correct them and call again") {
				if !strings.Contains(msg, w) {
					t.Errorf("the message lacks %q:\n%.600s", w, msg)
				}
			}
		})
	}
}

// A glob pattern is bounded as search_code's fileGlob is: a 1 MB pattern
// was searched for, and "No files match" echoed 99 KB of it.
func TestGlobPatternLengthIsBounded(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"a.txt": "a\n"}))
	msg := s.fail("glob_files", map[string]any{"pattern": strings.Repeat("x", 4097)}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, `"pattern" must be at most 4096 characters long (got 4097)`) {
		t.Errorf("a 4097-byte pattern: %s", msg)
	}
	if got := s.ok("glob_files", map[string]any{"pattern": strings.Repeat("*", 4096)}); !strings.Contains(got, "a.txt") {
		t.Errorf("a 4096-byte pattern: %.300s", got)
	}
}

// read_files of an empty path names it, as "": the message read "the path
// could not be read: : INVALID_ARGUMENT (the path is empty…)".
func TestReadFilesNamesAnEmptyPath(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"a.txt": "a\n"}))
	for _, paths := range [][]string{{""}, {"", "missing"}} {
		msg := s.fail("read_files", map[string]any{"paths": paths}, "INVALID_ARGUMENT")
		if !strings.Contains(msg, `read: "": INVALID_ARGUMENT (the path is empty`) || strings.Contains(msg, ": : ") {
			t.Errorf("read_files %q: %s", paths, msg)
		}
	}
}

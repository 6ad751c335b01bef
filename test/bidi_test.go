package test

import (
	"strings"
	"testing"
)

// juju's own sentences in a result — the first line of a change, the
// command line a result echoes — give a path or a command the model sent as
// juju.LineText does: a bidi override, mark or isolate, a zero-width
// character or a control character in it is escaped, so it cannot reorder
// or hide what the line says (Trojan Source). A file's content, read
// back, stays as it is.
func TestJujuLinesEscapeFormatCharacters(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "x\u202ey\u200f\n"})
	s := start(t, root, "--mode", "trusted")

	firstLine := func(got string) string { return strings.SplitN(got, "\n", 2)[0] }
	for _, c := range []struct {
		tool string
		args map[string]any
		want string // the first line starts so
	}{
		{"make_directory", map[string]any{"path": "d\u202etxt.exe"}, `Made "d\u202etxt.exe": change `},
		{"write_file", map[string]any{"path": "w\u200f.txt", "content": "w\n"}, `Wrote "w\u200f.txt": change `},
		{"edit_file", map[string]any{"path": "w\u200f.txt", "oldString": "w", "newString": "v"}, `Edited "w\u200f.txt": change `},
		{"move_path", map[string]any{"path": "w\u200f.txt", "destination": "m\u2067.txt"}, `Moved "w\u200f.txt" to "m\u2067.txt": change `},
		{"delete_path", map[string]any{"path": "m\u2067.txt"}, `Deleted "m\u2067.txt": change `},
	} {
		got := firstLine(s.ok(c.tool, c.args))
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: first line %q, want it to start %q", c.tool, got, c.want)
		}
	}

	got := s.ok("run_command", map[string]any{"command": "true #\u200f\u061c\u200b\ufeff\u202e"})
	if l := firstLine(got); l != `$ true #\u200f\u061c\u200b\ufeff\u202e` {
		t.Errorf("run_command echoes its command line as %q:\n%s", l, got)
	}

	if got := s.ok("read_file", map[string]any{"path": "a.txt"}); !strings.Contains(got, "x\u202ey\u200f") {
		t.Errorf("read_file altered the file's content:\n%q", got)
	}
}

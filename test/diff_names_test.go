package test

import (
	"strings"
	"testing"
)

// The diff a change answers with names its files in juju's own lines
// (--- and +++, "new folder", "Binary or large file"): a name's bidi
// override, zero-width or C1 character is written there in octal, as git
// quotes it, so it cannot reorder or hide the line; it was written raw, and
// "+++ b/w\u202etxt.exe" read as "+++ b/wexe.txt".
func TestDiffLinesEscapeFormatCharactersInNames(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	s := start(t, root, "--mode", "trusted")
	raw := "\u202e\u200b\u009b"
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"write_file", map[string]any{"path": "w\u202etxt.exe", "content": "w\n"}, `+++ "b/w\342\200\256txt.exe"`},
		{"make_directory", map[string]any{"path": "d\u200b"}, `new folder "d\342\200\213"`},
		{"write_file", map[string]any{"path": "b\u009b31m.bin", "content": "\x00\x01"}, `Binary or large file "b\302\23331m.bin"`},
	} {
		got := s.ok(c.tool, c.args)
		if strings.ContainsAny(got, raw) {
			t.Errorf("%s answers with a raw format or control character:\n%q", c.tool, got)
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: no %s in\n%s", c.tool, c.want, got)
		}
	}
}

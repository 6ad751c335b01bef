package semantic

import "testing"

// A location names its file as a line of text shows a path
// (juju.PathText): a bidi override or a line break in a file's name is
// escaped, so the line cannot read as another file or split in two.
func TestPositionQuotesPath(t *testing.T) {
	for _, c := range []struct {
		path         string
		line, column int
		want         string
	}{
		{"main.go", 3, 7, "main.go:3:7"},
		{"main.go", 3, 0, "main.go:3"},
		{"og.\u202etxt.go", 1, 2, `"og.\u202etxt.go":1:2`},
		{"a\u200f.go", 1, 0, `"a\u200f.go":1`},
		{"a\nb.go", 4, 1, `"a\nb.go":4:1`},
	} {
		if got := position(c.path, c.line, c.column); got != c.want {
			t.Errorf("position(%q, %d, %d) = %q, want %q", c.path, c.line, c.column, got, c.want)
		}
	}
}

package edit

import "testing"

// looseLine finds oldString across white space and lookalike characters,
// on the line where it starts, and nowhere else.
func TestLooseLine(t *testing.T) {
	for _, c := range []struct {
		body, old string
		want      int
	}{
		{"a\nfunc f() {\n\treturn 1\n}\n", "func f() {\n    return 1\n}", 2},
		{"x\ny\nHe said “hello” and it’s fine.\n", "said \"hello\" and it's", 3},
		{"price:\u00a0100 EUR\n", "price: 100 EUR", 1},
		{"alpha   \r\nbeta\r\n", "alpha\nbeta", 1},
		{"zero\u200bwidth ok\n", "zerowidth ok", 0}, // the word is not there as it is
		{"return 1\n", "return 2", 0},
		{"a b\n", "  ", 0},
	} {
		if got := looseLine([]byte(c.body), c.old, longestWord(c.old)); got != c.want {
			t.Errorf("looseLine(%q, %q) = %d, want %d", c.body, c.old, got, c.want)
		}
	}
}

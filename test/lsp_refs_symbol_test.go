//go:build unix

package test

import (
	"strings"
	"testing"
)

// find_references by a name path that names several declarations (Run:
// A.Run, B.Run and a field Run) lists the references of each and names
// them all, where it listed A.Run's alone as "the references of Run",
// missing every call of B.Run. And includeDeclaration false given once
// leaves the next call's default alone: the false was decoded through the
// default's shared pointer, and every later call of that plugin instance
// left the declaration out.
func TestLSPFindReferencesNamePathOfSeveral(t *testing.T) {
	root := workspace(t, map[string]string{
		"go.mod": "module example.com/r\n\ngo 1.22\n",
		"s.go": "package r\n\ntype A struct{}\ntype B struct{}\n\nfunc (A) Run() {}\nfunc (B) Run() {}\n\n" +
			"func f() {\n\tvar a A\n\ta.Run()\n\tvar b B\n\tb.Run()\n\tb.Run()\n}\n\ntype Outer struct{ Inner struct{ Run int } }\n",
	})
	home := lspHome(t)
	lspAddGopls(t, home)
	s := startHome(t, home, root, "--mode", "trusted")

	type locations struct {
		Locations []struct {
			Path         string
			Line, Column int
		}
		Note string
	}
	places := func(l locations) string {
		var b []string
		for _, x := range l.Locations {
			b = append(b, at(x.Path, x.Line, x.Column))
		}
		return strings.Join(b, " ")
	}
	res := s.call("find_references", map[string]any{"symbol": "Run"})
	var all locations
	decode(t, res, &all)
	if got, want := places(all), "s.go:6:10 s.go:7:10 s.go:11:4 s.go:13:4 s.go:14:4 s.go:17:34"; got != want {
		t.Errorf("the references of every Run: got %s, want %s\n%s", got, want, text(res))
	}
	for _, d := range []string{"A.Run at s.go:6:10", "B.Run at s.go:7:10", "Outer.Inner.Run at s.go:17:34"} {
		if !strings.Contains(all.Note, d) {
			t.Errorf("the note does not name %s: %q", d, all.Note)
		}
	}

	// A name path of one declaration lists its references alone, with no
	// note; includeDeclaration false drops the declaration for that call
	// only.
	for _, c := range []struct {
		incl any
		want string
	}{{nil, "s.go:7:10 s.go:13:4 s.go:14:4"}, {false, "s.go:13:4 s.go:14:4"}, {nil, "s.go:7:10 s.go:13:4 s.go:14:4"}, {true, "s.go:7:10 s.go:13:4 s.go:14:4"}} {
		args := map[string]any{"symbol": "B.Run"}
		if c.incl != nil {
			args["includeDeclaration"] = c.incl
		}
		res := s.call("find_references", args)
		var one locations
		decode(t, res, &one)
		if got := places(one); got != c.want || one.Note != "" {
			t.Errorf("B.Run, includeDeclaration %v: got %s, want %s\n%s", c.incl, got, c.want, text(res))
		}
	}
}

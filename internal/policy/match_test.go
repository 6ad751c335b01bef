package policy

import "testing"

func TestGlobSet(t *testing.T) {
	var g globSet
	for _, p := range []string{"docs/*.md", "**/.aws/credentials", "/build/secret/**", "a/b", "*.vault", "tmp*", "x?y", "Notes/"} {
		if err := g.add(p); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		rel string
		one bool // matchOne
		any bool // match (rel or a folder above)
	}{
		{"docs/a.md", true, true},
		{"DOCS/A.MD", true, true},
		{"docs/sub/a.md", false, false},
		{"x/docs/a.md", false, false},
		{".aws/credentials", true, true},
		{"home/.AWS/Credentials", true, true},
		{"home/x.aws/credentials", false, false},
		{"build/secret", true, true},
		{"build/secret/k/v", true, true},
		{"build/secretx", false, false},
		{"sub/build/secret", false, false},
		{"a/b", true, true},
		{"a/b/c", false, true},
		{"a/bc", false, false},
		{"s/k.vault", true, true},
		{"s/k.vault/inner", false, true},
		{"tmpfile", true, true},
		{"q/xzy", true, true},
		{"notes", true, true},
		{"notes/x", false, true},
		{"main.go", false, false},
	} {
		if got := g.matchOne(c.rel); got != c.one {
			t.Errorf("matchOne(%q) = %v, want %v", c.rel, got, c.one)
		}
		if got := g.match(c.rel); got != c.any {
			t.Errorf("match(%q) = %v, want %v", c.rel, got, c.any)
		}
	}
}

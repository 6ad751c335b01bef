package policy

import (
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

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

// FuzzFullGlobTail checks the shortcut of globs with a slash: a path the
// glob engine matches always ends with the glob's tail, so skipping the
// engine for the paths that do not changes no answer.
func FuzzFullGlobTail(f *testing.F) {
	for _, p := range append(DefaultSecrets(), "docs/*.md", "/build/secret/**", "a/b", "x/**/y", "a/{b,c/d}", `a/\*b`, `a/b\c`, "a/[bc]/d", "**/x/**", "a**/b", "**/*.git/config") {
		for _, rel := range []string{"repo/.git/config", ".git/config", "x.git/config", "a/b", "docs/a.md", "x/y", "a/c/d", "a/*b", "a/bc", "ab/b", "config"} {
			f.Add(p, rel)
		}
	}
	f.Fuzz(func(t *testing.T, pattern, rel string) {
		var g globSet
		if g.add(pattern) != nil || len(g.full) != 1 {
			return
		}
		fg := g.full[0]
		lower := strings.ToLower(rel)
		if ok, _ := doublestar.Match(fg.glob, lower); ok && !strings.HasSuffix(lower, fg.tail) {
			t.Fatalf("glob %q matches %q, which does not end with its tail %q", fg.glob, lower, fg.tail)
		}
	})
}

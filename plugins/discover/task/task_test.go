package task

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestStripJSONC(t *testing.T) {
	in := "{\n  // a comment, with \"quotes\"\n  \"a\": \"x // not a comment\", /* block\n  */ \"b\": [1, 2,],\n}\n"
	out := StripJSONC([]byte(in))
	if len(out) != len(in) {
		t.Fatalf("length changed")
	}
	var v struct {
		A string
		B []int
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if v.A != "x // not a comment" || len(v.B) != 2 {
		t.Fatalf("got %+v", v)
	}
	ms, err := Members(out, 0)
	if err != nil || len(ms) != 2 || ms[0].Line != 3 || ms[1].Line != 4 {
		t.Fatalf("members %+v, %v", ms, err)
	}
}

func TestKind(t *testing.T) {
	for name, want := range map[string]string{
		"test": "test", "test:unit": "test", "lint": "lint", "fmt": "lint", "build": "build",
		"dev": "run", "start": "run", "clean": "other", "typecheck": "lint", "e2e": "test",
	} {
		if got := Kind(name); got != want {
			t.Errorf("Kind(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestJoin(t *testing.T) {
	for _, tc := range []struct{ dir, rel, want string }{
		{".", "a.mk", "a.mk"}, {"sub", "../b.mk", "b.mk"}, {".", "../x", ""}, {"sub", "/etc/passwd", ""},
	} {
		got, ok := Join(tc.dir, tc.rel)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Join(%q, %q) = %q, %v", tc.dir, tc.rel, got, ok)
		}
	}
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte("\xef\xbb\xbf{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := NewResult()
	if data, ok := res.Read(DirFS(dir), "a.json"); !ok || string(data) != "{}" {
		t.Errorf("Read(a.json) = %q, %v; want {} without its BOM", data, ok)
	}
	if _, ok := res.Read(DirFS(dir), "missing.json"); ok {
		t.Error("Read(missing.json) succeeded")
	}
	if len(res.Warnings) != 1 || res.Warnings[0].File != "missing.json" || !strings.Contains(res.Warnings[0].Message, "could not be read") {
		t.Errorf("warnings = %+v", res.Warnings)
	}
}

func TestWalkGrepAndExecutable(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"a.go":                 "package main\n",
		"sub/b.go":             "// x\npackage b\n//go:generate y\n",
		"sub/c.txt":            "package main\n",
		"node_modules/d.go":    "package main\n",
		"sub/deeper/e_test.go": "package main\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	os.Chmod(filepath.Join(dir, "a.go"), 0o755)
	hits, err := DirFS(dir).Grep(".", "*.go", `^(package main|//go:generate)`, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hits {
		got = append(got, fmt.Sprintf("%s:%d:%s", h.Path, h.Line, h.Text))
	}
	want := "a.go:1:package main sub/b.go:3://go:generate y sub/deeper/e_test.go:1:package main"
	if strings.Join(got, " ") != want {
		t.Errorf("Grep = %q, want %q", got, want)
	}
	// Folders named by skip are not entered, at any depth.
	hits, err = DirFS(dir).Grep(".", "*.go", `^package main`, []string{"deep*"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].Path != "a.go" {
		t.Errorf("Grep skipping deep* = %+v, want a.go alone", hits)
	}
	if fsys := DirFS(dir); !fsys.Executable("a.go") || fsys.Executable("sub/b.go") || fsys.Executable("sub") || fsys.Executable("nope") {
		t.Error("Executable is wrong about a.go (755), sub/b.go (644), sub (a folder) or nope (missing)")
	}
}

// A pattern AnchoredGroup splits finds the same lines as its group's
// matches that start at column 1; a pattern of any other shape is left
// whole.
func TestAnchoredGroup(t *testing.T) {
	lines := []string{
		"package main", "package main // a tool", "\tpackage main", `x := "package main"`,
		"//go:generate stringer -type=Op", "// see //go:generate stringer", "//go:generatex",
		"//go:build ignore", "//go:build linux && !ignore", "// //go:build ignore",
		"b", "ab", "ba", "a", "", "abab", "Package Main",
	}
	for _, c := range []struct {
		re    string
		split bool
	}{
		{`^(package main|//go:generate[ \t]|//go:build[ \t].*ignore)`, true},
		{`^(a|b)`, true},
		{`^(a*)`, true},
		{`^((?i)package main)`, true},
		{`^(a)|b`, false}, // the anchor binds to a alone
		{`^(a)(b)`, false},
		{`^(?:a|b)`, false},
		{`^a|b`, false},
		{`^a`, false},
		{`(a|b)`, false},
		{`^(a`, false},
	} {
		group, ok := AnchoredGroup(c.re)
		if ok != c.split {
			t.Errorf("AnchoredGroup(%q) = %q, %v; want split %v", c.re, group, ok, c.split)
			continue
		}
		if !ok {
			continue
		}
		whole, part := regexp.MustCompile(c.re), regexp.MustCompile(group)
		for _, l := range lines {
			at := part.FindStringIndex(l)
			if got, want := at != nil && at[0] == 0, whole.MatchString(l); got != want {
				t.Errorf("%q on %q: the group at column 1 says %v, the pattern %v", c.re, l, got, want)
			}
		}
	}
}

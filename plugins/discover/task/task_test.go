package task

import (
	"encoding/json"
	"os"
	"path/filepath"
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

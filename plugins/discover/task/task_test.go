package task

import (
	"encoding/json"
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

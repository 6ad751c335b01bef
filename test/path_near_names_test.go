package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A path that misses a file only by letter case or by how its accents are
// encoded (NFC as typed, NFD as macOS writes names) is NOT_FOUND with the
// name the folder holds, written so that the difference shows; the two
// encodings look the same in a listing, so "does not exist" alone sent the
// model looking for a file it had just seen. A backslash is named as no
// folder separator. No name a listing withholds is offered.
func TestNotFoundNamesTheNearName(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "loot.txt"), []byte("OUTSIDE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := workspace(t, map[string]string{
		"Docs/Re\u0301sume\u0301.md": "cv\n",
		"README.md":                  "readme\n",
		"sub/f.txt":                  "f\n",
		"Loot.txt":                   "->" + filepath.Join(outside, "loot.txt"),
	})
	s := start(t, root)
	for _, c := range []struct{ path, want string }{
		{"Docs/R\u00e9sum\u00e9.md", `holds "Re\u0301sume\u0301.md", a name that differs from "R\u00e9sum\u00e9.md" only in how its accented letters are encoded`},
		{"readme.md", `holds "README.md", a name that differs from "readme.md" only in letter case`},
		{"docs/R\u00e9sum\u00e9.md", `the folder "." holds "Docs"`},
		{`sub\f.txt`, `pass "sub/f.txt" for folders`},
	} {
		msg := s.fail("read_file", map[string]any{"path": c.path}, "NOT_FOUND")
		if !strings.Contains(msg, c.want) {
			t.Errorf("read_file %q: the message lacks %q: %s", c.path, c.want, msg)
		}
	}
	if got := s.ok("read_file", map[string]any{"path": "Docs/Re\u0301sume\u0301.md"}); got != "cv\n" {
		t.Errorf("the name offered read %q", got)
	}
	// A name a listing withholds (here a link out of the root) is not
	// offered.
	if msg := s.fail("read_file", map[string]any{"path": "loot.txt"}, "NOT_FOUND"); strings.Contains(msg, "holds") {
		t.Errorf("read_file offered a withheld name: %s", msg)
	}
}

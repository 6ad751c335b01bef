package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// The path limits SECURITY.md states, each at its edge: a path of 4,096
// bytes, a name of 255 and a chain of 40 symbolic links are resolved; one
// byte, one name byte or one link more is INVALID_ARGUMENT.
func TestPathLimitsAtTheirEdges(t *testing.T) {
	dir := t.TempDir()
	// link1 → link2 → … → linkN → target.txt
	mustDo(t, os.WriteFile(filepath.Join(dir, "target.txt"), []byte("x"), 0o644))
	const hops = 40 // SECURITY.md: "Link loops stop after 40 links"
	const chain = hops + 1
	for i := 1; i <= chain; i++ {
		next := fmt.Sprintf("link%d", i+1)
		if i == chain {
			next = "target.txt"
		}
		mustDo(t, os.Symlink(next, filepath.Join(dir, fmt.Sprintf("link%d", i))))
	}
	p, err := New(Config{Roots: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	// linkK reaches the file through chain-K+1 links.
	if r, e := p.Resolve(fmt.Sprintf("link%d", chain-hops+1)); e != nil || r.Rel != "target.txt" {
		t.Errorf("a chain of %d links: %v, %+v; want target.txt", hops, e, r)
	}
	if _, e := p.Resolve("link1"); e == nil || e.Code != abi.InvalidArgument {
		t.Errorf("a chain of %d links: %v, want INVALID_ARGUMENT", hops+1, e)
	}

	name := func(n int) string { return strings.Repeat("n", n) }
	// A missing file: past Validate, the answer is NOT_FOUND, not INVALID_ARGUMENT.
	long := strings.Repeat(name(200)+"/", 21)
	long = long[:4096-len("/x")] + "/x"
	for _, c := range []struct {
		label, path string
		refused     bool
	}{
		{"a name of 255 bytes", name(255), false},
		{"a name of 256 bytes", name(256), true},
		{"a path of 4,096 bytes", long, false},
		{"a path of 4,097 bytes", "a" + long, true},
	} {
		e := Validate(c.path)
		if c.refused != (e != nil) {
			t.Errorf("Validate(%s) = %v, refused want %v", c.label, e, c.refused)
		}
		_, e = p.Resolve(c.path)
		if got := e != nil && e.Code == abi.InvalidArgument; got != c.refused {
			t.Errorf("Resolve(%s) = %v, INVALID_ARGUMENT want %v", c.label, e, c.refused)
		}
	}
}

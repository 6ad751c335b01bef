package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// nestedRoots makes ws holding build, with a file under each glob below,
// and a policy over both roots in the order given by innerFirst.
func nestedRoots(t *testing.T, innerFirst bool, cfg Config) (*Policy, string) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(tmp, "ws")
	for _, name := range []string{"build/secret-data/s.txt", "build/keys/k.txt", "build/inner-only/i.txt", "build/ok.txt", "top.txt"} {
		full := filepath.Join(ws, filepath.FromSlash(name))
		mustDo(t, os.MkdirAll(filepath.Dir(full), 0o755))
		mustDo(t, os.WriteFile(full, []byte("x"), 0o644))
	}
	cfg.Roots = []string{ws, filepath.Join(ws, "build")}
	if innerFirst {
		cfg.Roots[0], cfg.Roots[1] = cfg.Roots[1], cfg.Roots[0]
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, ws
}

// A deny or secret glob with a slash is a path from a root; with one root
// inside another, a path inside both has a spelling in each, and the glob
// holds whichever root the request reaches it through: relative to the
// first root, absolute, listed, or about to be written.
func TestNestedRootsApplyEveryRootsGlobs(t *testing.T) {
	bothModes(t, testNestedRootsApplyEveryRootsGlobs)
}

func testNestedRootsApplyEveryRootsGlobs(t *testing.T) {
	cfg := Config{
		Deny:    []string{"build/secret-data/**", "inner-only/**"},
		Secrets: []string{"build/keys/*"},
	}
	for _, innerFirst := range []bool{true, false} {
		p, ws := nestedRoots(t, innerFirst, cfg)
		inner := "build/"
		if innerFirst {
			inner = ""
		}
		for _, c := range []struct {
			path string
			code abi.Code
		}{
			{inner + "secret-data/s.txt", abi.PathDenied},
			{inner + "secret-data", abi.PathDenied},
			{filepath.Join(ws, "build/secret-data/s.txt"), abi.PathDenied},
			{inner + "keys/k.txt", abi.SecretDenied},
			{filepath.Join(ws, "build/keys/k.txt"), abi.SecretDenied},
			// A glob written from the inner root holds through the outer one.
			{filepath.Join(ws, "build/inner-only/i.txt"), abi.PathDenied},
			{inner + "ok.txt", ""},
			{filepath.Join(ws, "top.txt"), ""},
		} {
			_, e := p.Resolve(c.path)
			_, we := p.ResolveForWrite(c.path)
			if c.code == "" {
				if e != nil || we != nil {
					t.Errorf("innerFirst=%v: %s: %v / %v, want visible and writable", innerFirst, c.path, e, we)
				}
				continue
			}
			if e == nil || e.Code != c.code || we == nil || we.Code != c.code {
				t.Errorf("innerFirst=%v: %s: read %v, write %v, want %s", innerFirst, c.path, e, we, c.code)
			}
		}
		for _, r := range p.Roots() {
			want := "secret-data"
			if r.Real == ws {
				want = "build/secret-data"
			}
			if !p.Hidden(r, want) || p.Withholds(r, want) != abi.PathDenied {
				t.Errorf("innerFirst=%v: a listing of %s shows %s", innerFirst, r.Real, want)
			}
			if p.Hidden(r, filepath.Dir(want)+"/ok.txt") {
				t.Errorf("innerFirst=%v: a listing of %s hides ok.txt", innerFirst, r.Real)
			}
		}
	}
}

// The owner's name globs do not apply to a root's own name in its own
// spelling, only as a name inside an outer root: a deny glob `.*` hides
// no root.
func TestNestedRootsRootItselfIsJudgedFromOutside(t *testing.T) {
	p, ws := nestedRoots(t, true, Config{Deny: []string{".*"}})
	if _, e := p.Resolve("."); e != nil {
		t.Errorf("the inner root: %v", e)
	}
	if _, e := p.Resolve(ws); e != nil {
		t.Errorf("the outer root: %v", e)
	}
	p, _ = nestedRoots(t, true, Config{Deny: []string{"build"}})
	if _, e := p.Resolve("ok.txt"); e == nil || e.Code != abi.PathDenied {
		t.Errorf("a root inside a denied folder of another root: %v, want PATH_DENIED", e)
	}
}

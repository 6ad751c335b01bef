package fs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

func TestFuncs(t *testing.T) {
	p, err := policy.New(policy.Config{Roots: []string{t.TempDir()}})
	must(t, err)
	defer p.Close()
	want := []string{abi.FnFSRead, abi.FnFSReads, abi.FnFSList, abi.FnFSStat, abi.FnFSGlob}
	fns := New(p, Options{})
	if len(fns) != len(want) {
		t.Fatalf("%d functions, want %d", len(fns), len(want))
	}
	for i, fn := range fns {
		if fn.Name != want[i] || fn.Capability != abi.CapFSRead || fn.Handle == nil {
			t.Errorf("function %d: %s %s", i, fn.Name, fn.Capability)
		}
	}
}

// TestSecondRoot checks that paths in other roots than the first are shown
// absolute, and that links between roots are followed.
func TestSecondRoot(t *testing.T) {
	f := newFixture(t, Options{})
	two := filepath.Join(f.tmp, "two")
	must(t, os.MkdirAll(filepath.Join(two, "pkg"), 0o755))
	must(t, os.WriteFile(filepath.Join(two, "pkg", "x.go"), []byte("package pkg\n"), 0o644))
	must(t, os.Symlink(filepath.Join(f.ws, "a.txt"), filepath.Join(two, "to-one")))
	must(t, os.Symlink("../two/pkg/x.go", filepath.Join(f.ws, "to-two")))
	p, err := policy.New(policy.Config{Roots: []string{f.ws, two}})
	must(t, err)
	defer p.Close()
	f.p = p
	for _, fn := range New(p, Options{}) {
		f.fns[fn.Name] = fn.Handle
	}

	var glob abi.GlobResult
	f.call(t, abi.FnFSGlob, abi.GlobRequest{Path: two}, &glob)
	noErr(t, "glob", glob.Status)
	if got, want := paths(glob.Entries), two+"/pkg/x.go "+two+"/to-one:symlink->a.txt"; got != want {
		t.Errorf("glob:\n got  %s\n want %s", got, want)
	}
	var read abi.ReadResult
	body := f.call(t, abi.FnFSRead, abi.ReadRequest{Path: "to-two"}, &read)
	noErr(t, "read", read.Status)
	if read.Path != two+"/pkg/x.go" || string(body) != "package pkg\n" {
		t.Errorf("read through a link to the second root: %+v %q", read, body)
	}
	var list abi.ListResult
	f.call(t, abi.FnFSList, abi.ListRequest{Path: two + "/pkg"}, &list)
	noErr(t, "list", list.Status)
	if list.Path != two+"/pkg" || paths(list.Entries) != two+"/pkg/x.go" {
		t.Errorf("list: %+v", list)
	}
}

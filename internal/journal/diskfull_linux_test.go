package journal

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// A workspace whose disk is full: TOO_LARGE saying so, nothing changed.
// It needs a small file system of its own (a tmpfs, mounted as root).
func TestDiskFull(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mount("tmpfs", root, "tmpfs", 0, "size=256k"); err != nil {
		t.Skipf("cannot mount a small file system here: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(root, syscall.MNT_DETACH) })
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644)
	state := filepath.Join(t.TempDir(), "state")
	pol, err := policy.New(policy.Config{Roots: []string{root}, Private: []string{state}})
	if err != nil {
		t.Fatal(err)
	}
	defer pol.Close()
	j, err := Open(state, pol)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, root: root, state: state, pol: pol, j: j}
	before := tree(t, root)
	_, e := f.apply(write("a.txt", strings.Repeat("x", 1<<20)))
	if msg := wantCode(t, e, abi.TooLarge); !strings.Contains(msg, "is full") {
		t.Fatalf("the message does not say the disk is full: %s", msg)
	}
	if !equalTrees(tree(t, root), before) {
		t.Fatalf("the workspace changed:\n%s", diffTrees(tree(t, root), before))
	}
	noTemps(t, root)
}

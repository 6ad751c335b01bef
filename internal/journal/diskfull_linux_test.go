package journal

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

// A workspace whose disk is full: TOO_LARGE saying so, nothing changed.
// It needs a small file system of its own (a tmpfs, mounted as root).
func TestDiskFull(t *testing.T) {
	root := testfs.SmallDisk(t, "256k")
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

// TestDiskFilledDuringAChange: the workspace and the journal share a disk
// that fills up while a change is written (by the change's own files, or
// by anything else), after its intent is recorded. The change is made and
// recorded, and so is a rollback of it: the mark that a change is done
// needs no disk space the intent did not set aside. It needed more, so the
// mark failed, the files could not be put back on the full disk either,
// and the change was INTERNAL, written but not recorded.
func TestDiskFilledDuringAChange(t *testing.T) {
	top := testfs.SmallDisk(t, "2m")
	root, state := filepath.Join(top, "ws"), filepath.Join(top, "state")
	os.Mkdir(root, 0o755)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644)
	pol, err := policy.New(policy.Config{Roots: []string{root}, Private: []string{state}})
	if err != nil {
		t.Fatal(err)
	}
	defer pol.Close()
	filler := filepath.Join(top, "filler")
	fill := false
	j, err := Open(state, pol, WithFault(func(point string) {
		if point == "intent" && fill {
			fillDisk(t, filler)
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, root: root, state: state, pol: pol, j: j}
	content := strings.Repeat("a line of the new content\n", 2000) // a diff of 52 KB
	fill = true
	res, e := f.apply(write("a.txt", content))
	if e != nil {
		t.Fatalf("the change failed on a disk filled after its intent: %s: %s", e.Code, e.Message)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != content {
		t.Fatal("the change was answered as made but a.txt does not hold it")
	}
	noTemps(t, root)
	// The disk is full: the next change is refused, nothing changed.
	fill = false
	_, e = f.apply(write("a.txt", "b\n"))
	if msg := wantCode(t, e, abi.TooLarge); !strings.Contains(msg, "is full") {
		t.Fatalf("the message does not say the disk is full: %s", msg)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != content {
		t.Fatal("a refused change changed a.txt")
	}
	// Space freed, the disk fills again during a rollback: it is made.
	os.Remove(filler)
	fill = true
	if _, err := j.Rollback(context.Background(), who, res.ChangeID, false); err != nil {
		t.Fatalf("the rollback failed on a disk filled after its intent: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "a\n" {
		t.Fatalf("a.txt was not rolled back: %.40q", b)
	}
	fill = false
	os.Remove(filler)
	changes, err := j.Changes(time.Time{})
	if err != nil || len(changes) != 2 || !changes[0].RolledBack {
		t.Fatalf("history: %+v %v", changes, err)
	}
	noTemps(t, root)
}

// fillDisk writes name until its disk is full.
func fillDisk(t *testing.T, name string) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			return
		}
	}
}

package journal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/testfs"
)

// A writer killed halfway through a change, and the disk full when the
// next juju settles it: recovery cannot put the replaced paths back, so
// it keeps the change pending and says the disk is full, and settles it
// once there is room. It left the replaced paths new and dropped the
// change: the workspace kept a mix of old and new for good, with no
// record to roll back.
func TestRecoveryOnAFullDiskWaitsForRoom(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a writer")
	}
	top := testfs.SmallDisk(t, "4m")
	root, state, filler := filepath.Join(top, "ws"), filepath.Join(top, "state"), filepath.Join(top, "filler")
	for p, c := range crashFiles {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	oldTree := tree(t, root)
	// Killed once the first file is replaced (folders before it are made
	// and removed without room).
	killAt := ""
	for _, p := range crashPoints(t) {
		if i, ok := strings.CutPrefix(p, "temp:"); ok {
			killAt = "rename:" + i
			break
		}
	}
	if err := runHelper(t, "points", root, state, killAt).Run(); !killedBySIGKILL(err) {
		t.Fatalf("the writer was not killed halfway: %v", err)
	}
	if equalTrees(tree(t, root), oldTree) {
		t.Fatal("the writer was killed before it replaced any path")
	}
	pol, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer pol.Close()
	j, err := Open(state, pol)
	if err != nil {
		t.Fatal(err)
	}
	fillDisk(t, filler)
	if err := j.Recover(); err == nil {
		t.Error("recovery on a full disk reported nothing")
	}
	os.Remove(filler)
	if err := j.Recover(); err != nil {
		t.Fatalf("recovery once there is room: %v", err)
	}
	if got := tree(t, root); !equalTrees(got, oldTree) {
		t.Fatalf("the workspace is a mix of old and new after recovery:\n%s", diffTrees(got, oldTree))
	}
	if changes, err := j.Changes(time.Time{}); err != nil || len(changes) != 0 {
		t.Fatalf("the journal records %d change(s) (%v), the disk none", len(changes), err)
	}
	noTemps(t, root)
}

package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two jujus serve one workspace; one is killed halfway through a change
// of 200 files while the other keeps running. The survivor settled its
// journal when it started, long before the crash, yet its next call must
// not see the half change either: it puts the change right first, as a
// juju starting after the crash would.
func TestSurvivorSettlesAPeersCrash(t *testing.T) {
	const n = 200
	root := t.TempDir()
	home := newHome(t)
	oldFiles(root, n)
	survivor := startHome(t, home, root, "--mode", "trusted")
	survivor.ok("read_file", map[string]any{"path": halfwayName(0)}) // settled at start
	replaced := crashHalfway(t, home, root, n)
	if got := survivor.ok("read_file", map[string]any{"path": replaced}); !strings.Contains(got, "old") || strings.Contains(got, "new") {
		t.Fatalf("the running juju's read after its peer's crash saw the change's half: %s", got)
	}
	for i := range n {
		if b, _ := os.ReadFile(filepath.Join(root, halfwayName(i))); string(b) != "old\n" {
			t.Fatalf("%s holds %q after the survivor's read: the half change was not put back", halfwayName(i), b)
		}
	}
	// Nothing of the crashed change is on record: the history and `juju
	// rollback` agree with the files.
	if h := survivor.ok("change_history", map[string]any{}); strings.Contains(h, "apply_changes") {
		t.Fatalf("the crashed change is in the history:\n%s", h)
	}
}

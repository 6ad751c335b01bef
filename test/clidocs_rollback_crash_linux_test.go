package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// juju is killed halfway through a change of 200 files; the owner's first
// look is `juju rollback`. The list must agree with the files: it settles
// the half change first, says so on stderr, and lists the workspace as it
// now is (every file old again), where it listed the changes before the
// crash over a workspace half old, half new, with no word of it.
func TestRollbackListSettlesACrashedChange(t *testing.T) {
	const n = 200
	root := t.TempDir()
	home := newHome(t)
	oldFiles(root, n)
	crashHalfway(t, home, root, n)

	code, out, errs := jujuCLI(t, home, "rollback", "--root", root)
	if code != 0 {
		t.Fatalf("juju rollback: status %d\n%s%s", code, out, errs)
	}
	for i := range n {
		if b, _ := os.ReadFile(filepath.Join(root, halfwayName(i))); string(b) != "old\n" {
			t.Fatalf("after juju rollback listed the changes, %s holds %q: the half change is still there, and the list says nothing of it:\n%s%s", halfwayName(i), b, out, errs)
		}
	}
	if !strings.Contains(errs, "stopped in the middle of a change") || !strings.Contains(errs, "were put back as they were before it") {
		t.Errorf("juju rollback settled a crashed change without telling the owner:\n%s", errs)
	}
	if strings.Contains(out, "apply_changes") {
		t.Errorf("the undone change is listed:\n%s", out)
	}
}

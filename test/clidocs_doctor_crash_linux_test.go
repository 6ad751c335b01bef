package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// juju is killed halfway through a change; the owner runs juju doctor on
// the workspace. It must say that the workspace is half old, half new and
// what settles it (exit 1), where it reported a journal of no change and
// "No problems found". It settles nothing itself: juju rollback does.
func TestDoctorReportsAChangeLeftHalfway(t *testing.T) {
	const n = 200
	root := t.TempDir()
	home := newHome(t)
	oldFiles(root, n)
	replaced := crashHalfway(t, home, root, n)

	code, out, errs := jujuCLI(t, home, "doctor", "--root", root)
	if code != 1 || !strings.Contains(out, "stopped in the middle of change c") || !strings.Contains(out, "'juju rollback --root "+root+"' settles it now") {
		t.Fatalf("juju doctor on a workspace a crash left half old, half new: status %d\n%s%s", code, out, errs)
	}
	code, out, errs = jujuCLI(t, home, "doctor", "--json", "--root", root)
	var report struct {
		Journal  struct{ Pending []string }
		Problems []string
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || code != 1 || len(report.Journal.Pending) != 1 {
		t.Fatalf("juju doctor --json: status %d, %v\n%s%s", code, err, out, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(root, replaced)); string(b) != "new\n" {
		t.Fatalf("juju doctor settled the change (%s holds %q): a check changes nothing", replaced, b)
	}

	// What doctor says to do settles it, and doctor then finds nothing.
	if code, out, errs := jujuCLI(t, home, "rollback", "--root", root); code != 0 {
		t.Fatalf("juju rollback: status %d\n%s%s", code, out, errs)
	}
	if _, out, errs := jujuCLI(t, home, "doctor", "--root", root); strings.Contains(out, "stopped in the middle") {
		t.Errorf("juju doctor after juju rollback settled the change:\n%s%s", out, errs)
	}
}

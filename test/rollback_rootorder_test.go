package test

import (
	"strings"
	"testing"
)

// A workspace's journal and audit log are kept per ordered list of roots
// (a change names each path by its root's place in the list). The owner
// who served `--root a --root b` and then ran `juju rollback --root b
// --root a` was told only that no change had been recorded, though the
// change was there: juju rollback and juju audit now name the order that
// has them, and that command line lists the change.
func TestRollbackNamesTheRootsOrderThatHasTheChanges(t *testing.T) {
	a := workspace(t, map[string]string{"a.txt": "a\n"})
	b := workspace(t, map[string]string{"b.txt": "b\n"})
	home := t.TempDir()
	s := startHome(t, home, a, "--root", b, "--mode", "trusted")
	id := changeID(t, s, "edit_file", map[string]any{"path": b + "/b.txt", "oldString": "b", "newString": "B"})
	want := "juju rollback --root " + a + " --root " + b
	code, out, errw := jujuCLI(t, home, "rollback", "--root", b, "--root", a)
	if code != 0 || !strings.Contains(out, "No change has been recorded") || !strings.Contains(out, "in another order") || !strings.Contains(out, want) {
		t.Fatalf("rollback in the other order (exit %d) does not name the order that has the change:\n%s%s", code, out, errw)
	}
	code, _, errw = jujuCLI(t, home, "rollback", "--root", b, "--root", a, id)
	if code != 1 || !strings.Contains(errw, want) {
		t.Fatalf("rollback %s in the other order (exit %d): %s", id, code, errw)
	}
	if code, out, errw := jujuCLI(t, home, "audit", "--root", b, "--root", a); code != 0 || !strings.Contains(out, "juju audit --root "+a+" --root "+b) {
		t.Fatalf("audit in the other order (exit %d) does not name the order that has the calls:\n%s%s", code, out, errw)
	}
	// The order named lists the change; a folder never served gets no hint.
	if code, out, errw := jujuCLI(t, home, "rollback", "--root", a, "--root", b); code != 0 || !strings.Contains(out, id) {
		t.Fatalf("rollback in the order named (exit %d) does not list %s:\n%s%s", code, id, out, errw)
	}
	other := t.TempDir()
	if _, out, _ := jujuCLI(t, home, "rollback", "--root", other, "--root", a); strings.Contains(out, "in another order") {
		t.Fatalf("a workspace never served was pointed elsewhere:\n%s", out)
	}
	if disk(t, b, "b.txt") != "B\n" {
		t.Fatal("listing changed a file")
	}
}

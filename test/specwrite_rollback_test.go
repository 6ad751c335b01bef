package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A rollback of every change after a point puts each path back as it was
// at that point, so a change made before the point and redone inside the
// range is in effect afterwards: c1 edits a.txt, c2 rolls c1 back, c3
// rolls c2 back (c1 is redone), c4 edits b.txt, c5 rolls back everything
// after c1. a.txt holds c1's text, and rolling c1 back must work; the
// journal took c5 for one more undo of c1 and answered that c1 was
// already rolled back.
func TestRollbackAfterKeepsARedoneChange(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "old\n", "b.txt": "b\n"})
	s := start(t, root)
	s.ok("edit_file", map[string]any{"path": "a.txt", "oldString": "old", "newString": "new"}) // c000001
	s.ok("rollback_changes", map[string]any{"changeId": "c000001"})                            // c000002
	s.ok("rollback_changes", map[string]any{"changeId": "c000002"})                            // c000003
	s.ok("edit_file", map[string]any{"path": "b.txt", "oldString": "b", "newString": "B"})     // c000004
	s.ok("rollback_changes", map[string]any{"changeId": "c000001", "scope": "after"})          // c000005
	if a, b := specwriteRead(t, filepath.Join(root, "a.txt")), specwriteRead(t, filepath.Join(root, "b.txt")); a != "new\n" || b != "b\n" {
		t.Fatalf("after rolling back the changes after c000001: a.txt %q, b.txt %q, want c000001's %q and %q", a, b, "new\n", "b\n")
	}
	s.ok("rollback_changes", map[string]any{"changeId": "c000001"})
	if got := specwriteRead(t, filepath.Join(root, "a.txt")); got != "old\n" {
		t.Fatalf("a.txt after rolling back c000001: %q, want %q", got, "old\n")
	}
}

// The other way round: c1 edits a.txt, c2 rolls it back, c3 edits b.txt,
// and c4 rolls back everything since c1. c1 is not in effect (a.txt holds
// its old text), so rolling it back again says it was already rolled
// back; the journal took c4's undo of c2 for a redo of c1 and blamed a
// change to a.txt no one made.
func TestRollbackSinceKeepsAnUndoneChangeUndone(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	s := start(t, root)
	s.ok("edit_file", map[string]any{"path": "a.txt", "oldString": "a", "newString": "A"}) // c000001
	s.ok("rollback_changes", map[string]any{"changeId": "c000001"})                        // c000002
	s.ok("edit_file", map[string]any{"path": "b.txt", "oldString": "b", "newString": "B"}) // c000003
	s.ok("rollback_changes", map[string]any{"changeId": "c000001", "scope": "since"})      // c000004
	if a, b := specwriteRead(t, filepath.Join(root, "a.txt")), specwriteRead(t, filepath.Join(root, "b.txt")); a != "a\n" || b != "b\n" {
		t.Fatalf("after rolling back since c000001: a.txt %q, b.txt %q, want both as they were", a, b)
	}
	msg := s.fail("rollback_changes", map[string]any{"changeId": "c000001"}, "CONFLICT")
	if !strings.Contains(msg, "already rolled back") {
		t.Fatalf("rolling back c000001, which is not in effect: %s", msg)
	}
	if got := specwriteRead(t, filepath.Join(root, "a.txt")); got != "a\n" {
		t.Fatalf("a.txt: %q", got)
	}
}

func specwriteRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Rolling back everything since a change twice: the second finds every
// change since it already undone, and says so, as a second rollback of
// one change does, rather than record an empty change that rolled back
// the first rollback on paper while the files kept its work.
func TestRollbackSinceTwiceChangesNothing(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	s := start(t, root)
	s.ok("edit_file", map[string]any{"path": "a.txt", "oldString": "a", "newString": "A"}) // c000001
	s.ok("rollback_changes", map[string]any{"changeId": "c000001", "scope": "since"})      // c000002
	msg := s.fail("rollback_changes", map[string]any{"changeId": "c000001", "scope": "since"}, "CONFLICT")
	if !strings.Contains(msg, "nothing to roll back") {
		t.Fatalf("a second rollback since c000001: %s", msg)
	}
	if got := specwriteRead(t, filepath.Join(root, "a.txt")); got != "a\n" {
		t.Fatalf("a.txt: %q", got)
	}
	if h := s.ok("change_history", map[string]any{}); strings.Contains(h, "c000003") || !strings.Contains(h, "c000002") {
		t.Fatalf("the history after a rollback that changed nothing:\n%s", h)
	}
	// c000002 is still in effect, so it can be rolled back: c000001 is redone.
	s.ok("rollback_changes", map[string]any{"changeId": "c000002"})
	if got := specwriteRead(t, filepath.Join(root, "a.txt")); got != "A\n" {
		t.Fatalf("a.txt after rolling back c000002: %q", got)
	}
}

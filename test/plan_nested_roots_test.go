package test

import (
	"path/filepath"
	"strings"
	"testing"
)

// With one root inside another, a file has a name in each. A plan that
// wrote it through one and deleted it through the other showed both, and
// its apply failed halfway with FILE_CHANGED ("changed on disk while the
// change was being written"), each write finding the file changed by the
// other, so no retry could pass. A change that names one path two ways is
// INVALID_ARGUMENT naming both, whatever the operations, and a change
// that names it one way works. A rollback of changes that named it each
// way (it answered CONFLICT, "f.txt changed since", and failed halfway
// with force) says to roll them back one at a time.
func TestChangeNamesAPathOneWay(t *testing.T) {
	outer := workspace(t, map[string]string{"build/f.txt": "f\n", "build/x/g.txt": "g\n"})
	inner := filepath.Join(outer, "build")
	s := start(t, inner, "--root", outer)
	far := filepath.Join(outer, "build", "f.txt")
	for _, ops := range [][]any{
		{map[string]any{"op": "write", "path": "f.txt", "content": "A\n"}, map[string]any{"op": "delete", "path": far}},
		{map[string]any{"op": "write", "path": far, "content": "B\n"}, map[string]any{"op": "edit", "path": "f.txt", "oldString": "B", "newString": "C"}},
		{map[string]any{"op": "delete", "path": filepath.Join(outer, "build", "x"), "recursive": true}, map[string]any{"op": "write", "path": "x/new.txt", "content": "n\n"}},
	} {
		msg := s.fail("preview_changes", map[string]any{"operations": ops}, "INVALID_ARGUMENT")
		if !strings.Contains(msg, "are the same path, reached through two workspace roots") {
			t.Errorf("%v: %s", ops, msg)
		}
	}
	if got := string(readFile(t, far)); got != "f\n" {
		t.Fatalf("f.txt holds %q", got)
	}
	s.ok("apply_patch", map[string]any{"patch": "--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-f\n+one\n"})
	s.ok("write_file", map[string]any{"path": far, "content": "two\n"})
	if got := string(readFile(t, far)); got != "two\n" {
		t.Fatalf("f.txt holds %q", got)
	}
	// Two changes that name it each way are rolled back one at a time.
	msg := s.fail("rollback_changes", map[string]any{"changeId": "c000001", "scope": "since"}, "CONFLICT")
	if !strings.Contains(msg, "roll them back one at a time, newest first") {
		t.Errorf("a rollback of changes naming f.txt both ways: %s", msg)
	}
	s.ok("rollback_changes", map[string]any{"changeId": "c000002"})
	s.ok("rollback_changes", map[string]any{"changeId": "c000001"})
	if got := string(readFile(t, far)); got != "f\n" {
		t.Fatalf("after both rollbacks f.txt holds %q", got)
	}
}

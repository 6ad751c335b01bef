package test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPreviewOperationsNeedTheirFields: a preview_changes operation
// without the field its op needs, or with one its op does not take, is
// INVALID_ARGUMENT naming it, as write_file and edit_file refuse a call
// without content or newString. A write without content planned to empty
// the file, an edit without newString to delete oldString, and a delete
// with a destination deleted.
func TestPreviewOperationsNeedTheirFields(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha beta\n"})
	s := start(t, root)
	for _, c := range []struct {
		op   map[string]any
		want string // in the message
	}{
		{map[string]any{"op": "write", "path": "a.txt"}, "has no content"},
		{map[string]any{"op": "edit", "path": "a.txt", "oldString": "beta"}, "has no newString"},
		{map[string]any{"op": "edit", "path": "a.txt", "newString": "x"}, "has no oldString"},
		{map[string]any{"op": "delete", "path": "a.txt", "destination": "b.txt"}, "has destination, which a delete does not take"},
		{map[string]any{"op": "mkdir", "path": "d", "content": "x"}, "has content"},
		{map[string]any{"op": "write", "path": "a.txt", "content": "x", "oldString": "alpha"}, "has oldString"},
	} {
		msg := s.fail("preview_changes", map[string]any{"operations": []any{c.op}}, "INVALID_ARGUMENT")
		if !strings.Contains(msg, c.want) || !strings.Contains(msg, "operation 1") {
			t.Errorf("%v: message %q lacks %q", c.op, msg, c.want)
		}
	}
	// What each op takes is still taken, empty strings included.
	for _, op := range []map[string]any{
		{"op": "write", "path": "e.txt", "content": ""},
		{"op": "edit", "path": "a.txt", "oldString": " beta", "newString": ""},
		{"op": "move", "path": "a.txt", "destination": "b.txt"},
		{"op": "delete", "path": "a.txt", "recursive": false},
		{"op": "mkdir", "path": "d"},
	} {
		if res := s.call("preview_changes", map[string]any{"operations": []any{op}}); res.IsError {
			t.Errorf("%v: %s", op, text(res))
		}
	}
	if got := disk(t, root, "a.txt"); got != "alpha beta\n" {
		t.Fatalf("a preview wrote: %q", got)
	}
}

// A plan's move onto an existing file answered "set overwrite to replace
// it", an argument preview_changes did not take: the model that set it
// was refused by the input schema. A move operation takes overwrite, as
// move_path does, and the plan replaces the file only with it.
func TestPreviewMoveTakesOverwrite(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "new\n", "b.txt": "old\n"})
	s := start(t, root)
	move := map[string]any{"op": "move", "path": "a.txt", "destination": "b.txt"}
	if msg := s.fail("preview_changes", map[string]any{"operations": []any{move}}, "INVALID_ARGUMENT"); !strings.Contains(msg, "set overwrite") {
		t.Fatalf("a move onto a file without overwrite: %s", msg)
	}
	move["overwrite"] = true
	res := s.call("preview_changes", map[string]any{"operations": []any{move}})
	if res.IsError {
		t.Fatalf("a move onto a file with overwrite: %s", text(res))
	}
	planID := structured(t, res)["planId"]
	s.ok("apply_changes", map[string]any{"planId": planID})
	if got := string(readFile(t, filepath.Join(root, "b.txt"))); got != "new\n" || exists(root, "a.txt") {
		t.Fatalf("after the plan b.txt holds %q, a.txt exists: %v", got, exists(root, "a.txt"))
	}
	msg := s.fail("preview_changes", map[string]any{"operations": []any{map[string]any{"op": "delete", "path": "b.txt", "overwrite": true}}}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "has overwrite, which a delete does not take") {
		t.Fatalf("a delete with overwrite: %s", msg)
	}
}

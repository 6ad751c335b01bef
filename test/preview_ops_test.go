package test

import (
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

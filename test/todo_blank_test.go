package test

import (
	"strings"
	"testing"
)

// TestTodoItemsAreNotBlank holds that todo_write refuses an item whose
// content, or id, is white space only, and keeps the list it had. The
// schema's minimum length took "   " and "\n\t" for content, and the list
// showed items with nothing to do.
func TestTodoItemsAreNotBlank(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"a.txt": "a\n"}))
	s.ok("todo_write", map[string]any{"todos": []any{map[string]any{"content": "kept", "status": "pending"}}})
	for _, item := range []map[string]any{
		{"content": "   ", "status": "pending"},
		{"content": "\n\t", "status": "completed"},
		{"content": "real", "status": "pending", "id": " \n"},
	} {
		msg := s.fail("todo_write", map[string]any{"todos": []any{map[string]any{"content": "first", "status": "pending"}, item}}, "INVALID_ARGUMENT")
		if !strings.Contains(msg, "todo 2") {
			t.Fatalf("the refusal does not name the item: %s", msg)
		}
	}
	if got := s.ok("todo_read", map[string]any{}); !strings.Contains(got, "kept") || strings.Contains(got, "first") {
		t.Fatalf("a refused list replaced the one kept:\n%s", got)
	}
}

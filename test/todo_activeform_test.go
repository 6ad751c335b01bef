package test

import (
	"strings"
	"testing"
)

// TestTodoTakesClaudeCodesItems: Claude Code's todo items carry
// activeForm, the item as it is being done, and a model used to them
// sends it; todo_write refused it as an unknown argument, and the model
// paid a retry. It is kept, read back, and shown beside the item in
// progress.
func TestTodoTakesClaudeCodesItems(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"a.txt": "a\n"}))
	s.ok("todo_write", map[string]any{"todos": []any{
		map[string]any{"content": "Run the tests", "status": "in_progress", "activeForm": "Running the tests"},
		map[string]any{"content": "Fix the build", "status": "pending", "activeForm": "Fixing the build"},
	}})
	res := s.call("todo_read", map[string]any{})
	got := text(res)
	if !strings.Contains(got, "[~] 1. Run the tests: now Running the tests\n") || strings.Contains(got, "now Fixing") {
		t.Fatalf("todo_read:\n%s", got)
	}
	todos, _ := structured(t, res)["todos"].([]any)
	if len(todos) != 2 || todos[1].(map[string]any)["activeForm"] != "Fixing the build" {
		t.Fatalf("the structured list lost activeForm: %v", todos)
	}
}

package test

import (
	"fmt"
	"strings"
	"testing"
)

// The todo list is bounded so that todo_read always returns it whole: an
// item past a line's length, or a list past what one result can carry, is
// refused as INVALID_ARGUMENT and the list kept before stays; the largest
// list accepted is read back item for item, with no cut.
func TestTodoListIsReadBackWhole(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"a.txt": "x\n"}))
	s.ok("todo_write", map[string]any{"todos": []any{map[string]any{"content": "the list kept", "status": "pending"}}})

	long := strings.Repeat("y", 1001)
	msg := s.fail("todo_write", map[string]any{"todos": []any{map[string]any{"content": long, "status": "pending"}}}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, `"todos[0].content" must be at most 1000 characters`) {
		t.Errorf("a 1001-character item: %s", msg)
	}
	msg = s.fail("todo_write", map[string]any{"todos": []any{map[string]any{"id": strings.Repeat("i", 101), "content": "a", "status": "pending"}}}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, `"todos[0].id" must be at most 100 characters`) {
		t.Errorf("a 101-character id: %s", msg)
	}

	// 200 items of 1000 characters each fit the schema, but not one result.
	item := func(i int, n int) map[string]any {
		return map[string]any{"content": fmt.Sprintf("step %03d %s", i, strings.Repeat("<", n)), "status": "pending"}
	}
	var huge []any
	for i := range 200 {
		huge = append(huge, item(i, 990))
	}
	msg = s.fail("todo_write", map[string]any{"todos": huge}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "todo_read") || !strings.Contains(msg, "leave completed items out") {
		t.Errorf("a list too large to read back: %s", msg)
	}
	if got := s.ok("todo_read", map[string]any{}); !strings.Contains(got, "the list kept") {
		t.Fatalf("a refused list replaced the one kept: %.200s", got)
	}

	// The largest list that fits is read back whole.
	var fits []any
	for i := 0; ; i++ {
		fits = append(fits, item(i, 990))
		if res, _ := s.callErr("todo_write", map[string]any{"todos": fits}); res == nil || res.IsError {
			fits = fits[:len(fits)-1]
			break
		}
	}
	if len(fits) < 10 {
		t.Fatalf("only %d items of 1000 characters fit", len(fits))
	}
	res := s.call("todo_read", map[string]any{})
	body, sc := text(res), structured(t, res)
	todos, _ := sc["todos"].([]any)
	if res.IsError || len(todos) != len(fits) || sc["jujuCut"] != nil || strings.Contains(body, "juju cut") ||
		!strings.Contains(body, fmt.Sprintf("step %03d ", len(fits)-1)) {
		t.Fatalf("a list of %d items is not read back whole: %d items, cut %v, text …%s", len(fits), len(todos), sc["jujuCut"], body[max(0, len(body)-200):])
	}
}

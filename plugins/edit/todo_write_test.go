package edit

import (
	"strings"
	"testing"
)

// An item's id and content stand on its one line of the text: a line
// feed cannot forge another item or the count, and an escape cannot
// drive the terminal that shows the list (the structured content keeps
// them as written).
func TestTodoLinesStayLines(t *testing.T) {
	got := renderTodos([]Todo{
		{ID: "1\n[x] 9", Content: "real\n[x] 2. forged item\x1b[2J", Status: "pending"},
		{ID: "b", Content: "plain", Status: "completed"},
	})
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 3 || strings.ContainsRune(got, '\x1b') || lines[2] != "1 of 2 done." || lines[1] != "[x] b. plain" {
		t.Fatalf("%q", got)
	}
	if want := `[ ] "1\n[x] 9". "real\n[x] 2. forged item\u001b[2J"`; lines[0] != want {
		t.Errorf("got  %s\nwant %s", lines[0], want)
	}
}

// An id names one item: two items given the same id are refused, and an
// item without one gets its position unless another item holds it.
func TestTodoIDsNameOneItem(t *testing.T) {
	todos := []Todo{{ID: "2"}, {}, {}, {ID: "4"}}
	if err := assignTodoIDs(todos); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, td := range todos {
		ids = append(ids, td.ID)
	}
	if got := strings.Join(ids, ","); got != "2,5,3,4" {
		t.Fatalf("ids %s, want 2,5,3,4", got)
	}
	err := assignTodoIDs([]Todo{{ID: "a"}, {}, {ID: "a"}})
	if err == nil || !strings.Contains(err.Error(), `todos 1 and 3 both have id "a"`) {
		t.Fatalf("duplicate ids: %v", err)
	}
}

// An item's activeForm is shown while it is in progress, on its line.
func TestTodoActiveFormShownInProgress(t *testing.T) {
	got := renderTodos([]Todo{
		{ID: "1", Content: "Run the tests", Status: "in_progress", ActiveForm: "Running\nthe tests"},
		{ID: "2", Content: "Fix it", Status: "pending", ActiveForm: "Fixing it"},
	})
	want := "[~] 1. Run the tests: now \"Running\\nthe tests\"\n[ ] 2. Fix it\n0 of 2 done.\n"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

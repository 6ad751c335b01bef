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

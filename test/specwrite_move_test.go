package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A folder moved into itself is refused, and the message tells the model
// what to do next (SPEC §10): it named the fault and stopped there.
func TestMoveIntoItselfSaysWhatToDo(t *testing.T) {
	root := workspace(t, map[string]string{"d/e/f.txt": "f\n"})
	s := start(t, root)
	msg := s.fail("move_path", map[string]any{"path": "d", "destination": "d/e/g"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "inside itself") || !strings.Contains(msg, "choose a destination outside") {
		t.Fatalf("message: %s", msg)
	}
	if _, err := os.Stat(filepath.Join(root, "d", "e", "f.txt")); err != nil {
		t.Fatal(err)
	}
}

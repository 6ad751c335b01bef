package test

import (
	"encoding/json"
	"strings"
	"testing"
)

// checkTerminalSafe fails when out carries a raw control character, or a
// row that a file name broke in two, and when it lacks the escaped names.
func checkTerminalSafe(t *testing.T, where, out string, want ...string) {
	t.Helper()
	if strings.ContainsAny(out, "\x1b\x01\r") {
		t.Errorf("%s prints raw control characters:\n%q", where, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "line.txt") {
			t.Errorf("%s lets a file name break a row:\n%s", where, out)
		}
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s does not show %s:\n%s", where, w, out)
		}
	}
}

// File names are the model's text: juju rollback and juju audit show
// them with their control characters escaped, so a model cannot colour,
// break or forge the rows of the owner's change list.
func TestRollbackEscapesModelText(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	s := start(t, root)
	s.ok("write_file", map[string]any{"path": "ctl\x01\x1b[31m.txt", "content": "red\n"})
	s.ok("write_file", map[string]any{"path": "new\nline.txt", "content": "two\n"})

	ctl, nl := `ctl\x01\x1b[31m.txt`, `new\nline.txt`
	checkTerminalSafe(t, "juju rollback", juju(t, s.home, root, "rollback"), ctl, nl)
	checkTerminalSafe(t, "juju audit", juju(t, s.home, root, "audit"), ctl, nl)

	var changes []struct{ ID string }
	if err := json.Unmarshal([]byte(juju(t, s.home, root, "rollback", "--json")), &changes); err != nil || len(changes) != 2 {
		t.Fatalf("juju rollback --json: %v %v", changes, err)
	}
	checkTerminalSafe(t, "juju rollback CHANGE", juju(t, s.home, root, "rollback", changes[0].ID), nl)
	checkTerminalSafe(t, "juju rollback CHANGE", juju(t, s.home, root, "rollback", changes[1].ID), ctl)
}

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

// --json output is printed on the owner's terminal as often as it is
// piped: encoding/json escapes only the C0 controls, so a file name
// holding U+009B (the one-byte CSI some terminals act on) or a bidi
// override came out raw. juju rollback --json and juju audit --json
// escape them as \u, and the JSON still decodes to the name.
func TestJSONOutputEscapesModelText(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	s := start(t, root)
	name := "c1\u009b31m\u202etxt.exe\u200b\u007f"
	s.ok("write_file", map[string]any{"path": name, "content": "x\n"})

	raw := func(where, out string) {
		t.Helper()
		if strings.ContainsAny(out, "\u009b\u202e\u200b\u007f\x1b") {
			t.Errorf("%s prints raw control or format characters:\n%q", where, out)
		}
		if !strings.Contains(out, `c1\u009b31m\u202etxt.exe\u200b\u007f`) {
			t.Errorf("%s does not show the name escaped:\n%s", where, out)
		}
	}
	list := juju(t, s.home, root, "rollback", "--json")
	raw("juju rollback --json", list)
	var changes []struct {
		ID    string
		Paths []string
	}
	if err := json.Unmarshal([]byte(list), &changes); err != nil || len(changes) != 1 || len(changes[0].Paths) != 1 || changes[0].Paths[0] != name {
		t.Fatalf("juju rollback --json does not decode to the name: %+v %v", changes, err)
	}
	raw("juju audit --json", juju(t, s.home, root, "audit", "--json"))
	raw("juju rollback CHANGE --json", juju(t, s.home, root, "rollback", changes[0].ID, "--json"))
}

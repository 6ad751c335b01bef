package test

import (
	"encoding/json"
	"strings"
	"testing"
)

// A file the owner makes a secret after a change wrote it is withheld by
// change_history as read_file withholds it: the change's diff held its
// lines, served to any client of a later session.
func TestHistoryWithholdsPathsPrivateSince(t *testing.T) {
	root := workspace(t, map[string]string{"config/prod.yml": "db_password: hunter2\nport: 1\n", "notes.txt": "visible line\n"})
	home := t.TempDir()
	s := startHome(t, home, root, "--mode", "trusted")
	s.ok("edit_file", map[string]any{"path": "notes.txt", "oldString": "visible", "newString": "VISIBLE"})
	id := changeID(t, s, "edit_file", map[string]any{"path": "config/prod.yml", "oldString": "port: 1", "newString": "port: 2"})
	s.c.Close()

	writeConfig(t, home, "[policy]\nsecrets = [\"config/prod.yml\"]\n")
	s = startHome(t, home, root, "--mode", "trusted")
	s.fail("read_file", map[string]any{"path": "config/prod.yml"}, "SECRET_DENIED")
	for _, args := range []map[string]any{{"changeId": id}, {}} {
		res := s.call("change_history", args)
		b, _ := json.Marshal(res)
		if res.IsError || strings.Contains(string(b), "hunter2") {
			t.Fatalf("change_history(%v) serves the secret: %s", args, b)
		}
	}
	if got := s.ok("change_history", map[string]any{"changeId": id}); !strings.Contains(got, "withheld: it is now a secret") {
		t.Errorf("the withheld diff is not named: %s", got)
	}
	if got := s.ok("change_history", map[string]any{"changeId": "c000001"}); !strings.Contains(got, "+VISIBLE line") {
		t.Errorf("a visible file's diff: %s", got)
	}
}

package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A journal file that cannot be read (overwritten here; truncated, or not
// a file at all) leaves juju audit its calls to show, without their
// changes, saying why: it failed, and showed none. juju rollback sets the
// file aside and says so; it said a juju process had stopped in the
// middle of a change, which none had, and called the damage "not yet
// settled".
func TestDamagedJournalInTheCLI(t *testing.T) {
	root, home, db := journalOfOneChange(t)
	if err := os.WriteFile(db, []byte(strings.Repeat("not a bbolt page ", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := jujuErr(home, root, "audit")
	if err != nil || !strings.Contains(out, "write_file") || !strings.Contains(out, "shown without the changes they made") || !strings.Contains(out, "is damaged") {
		t.Errorf("juju audit over a damaged journal: %v\n%s", err, out)
	}
	out = juju(t, home, root, "rollback")
	if strings.Contains(out, "stopped in the middle of a change") || strings.Contains(out, "not yet settled") {
		t.Errorf("juju rollback calls a damaged journal a crash:\n%s", out)
	}
	if !strings.Contains(out, "is damaged") || !strings.Contains(out, "set it aside as "+db+".damaged-") {
		t.Errorf("juju rollback does not say the journal was damaged and set aside:\n%s", out)
	}
	if aside, _ := filepath.Glob(db + ".damaged-*"); len(aside) != 1 {
		t.Errorf("set aside as %v", aside)
	}
}

// A server that finds the journal damaged as it starts sets it aside
// before any call, so no write fails to say so: change_history then said
// "No change has been recorded in this workspace yet", and juju rollback
// "No change has been recorded in this workspace", over a workspace with
// changes the model had made and could name by ids the new journal gives
// out again. Both now say the older changes went with the damaged journal.
func TestHistoryAfterADamagedJournalSaysSo(t *testing.T) {
	root, home, db := journalOfOneChange(t)
	if err := os.Truncate(db, 8192); err != nil {
		t.Fatal(err)
	}

	s := startHome(t, home, root)
	out := s.ok("change_history", nil)
	if strings.Contains(out, "No change has been recorded") || !strings.Contains(out, "found the journal damaged") {
		t.Errorf("change_history over a replaced journal:\n%s", out)
	}
	s.ok("write_file", map[string]any{"path": "a.txt", "content": "2\n"})
	if out = s.ok("change_history", nil); !strings.Contains(out, "c000001") || !strings.Contains(out, "no older change is in the journal: juju found the journal damaged") {
		t.Errorf("change_history after a new change:\n%s", out)
	}
	if out = juju(t, home, root, "rollback"); !strings.Contains(out, "c000001") || !strings.Contains(out, "No older change is in the journal: juju found the journal damaged") {
		t.Errorf("juju rollback after a new change:\n%s", out)
	}
}

// journalOfOneChange makes a workspace in which juju, stopped since,
// wrote one change, and returns its root, juju's home and the journal's
// file.
func journalOfOneChange(t *testing.T) (root, home, db string) {
	t.Helper()
	root = workspace(t, map[string]string{"a.txt": "0\n"})
	home = t.TempDir()
	s := startHome(t, home, root)
	s.ok("write_file", map[string]any{"path": "a.txt", "content": "1\n"})
	s.c.Close()
	dbs, _ := filepath.Glob(filepath.Join(home, "state", "workspaces", "*", "journal.db"))
	if len(dbs) != 1 {
		t.Fatalf("journal files %v", dbs)
	}
	return root, home, dbs[0]
}

package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A journal file that cannot be read (overwritten here; truncated, or not
// a file at all) is set aside by juju rollback, which says so; it said a
// juju process had stopped in the middle of a change, which none had, and
// called the damage "not yet settled".
func TestRollbackSaysADamagedJournalIsNoCrash(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "0\n"})
	home := t.TempDir()
	s := startHome(t, home, root)
	s.ok("write_file", map[string]any{"path": "a.txt", "content": "1\n"})
	s.c.Close()
	dbs, _ := filepath.Glob(filepath.Join(home, "state", "workspaces", "*", "journal.db"))
	if len(dbs) != 1 {
		t.Fatalf("journal files %v", dbs)
	}
	if err := os.WriteFile(dbs[0], []byte(strings.Repeat("not a bbolt page ", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	out := juju(t, home, root, "rollback")
	if strings.Contains(out, "stopped in the middle of a change") || strings.Contains(out, "not yet settled") {
		t.Errorf("juju rollback calls a damaged journal a crash:\n%s", out)
	}
	if !strings.Contains(out, "is damaged") || !strings.Contains(out, "set it aside as "+dbs[0]+".damaged-") {
		t.Errorf("juju rollback does not say the journal was damaged and set aside:\n%s", out)
	}
	if aside, _ := filepath.Glob(dbs[0] + ".damaged-*"); len(aside) != 1 {
		t.Errorf("set aside as %v", aside)
	}
}

//go:build unix

package journal

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// An edit, a write and a rollback replace a file with a new one that keeps
// the old one's owner, group and mode (setgid included), with unnamed
// temporary files and with named ones. It needs root, as juju running as
// root is where a user's file would otherwise become root's.
func TestReplacedFilesKeepTheirOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	for _, serial := range []bool{false, true} {
		f := newFixture(t, map[string]string{"a.txt": "a\n"})
		f.j.opts.serial = serial
		p := filepath.Join(f.root, "a.txt")
		if err := os.Chown(p, 4321, 4322); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, 0o640|os.ModeSetgid)
		check := func(when string) {
			t.Helper()
			fi, err := os.Lstat(p)
			if err != nil {
				t.Fatal(err)
			}
			st := fi.Sys().(*syscall.Stat_t)
			if st.Uid != 4321 || st.Gid != 4322 || fi.Mode() != 0o640|os.ModeSetgid {
				t.Fatalf("serial %v, after %s: owner %d:%d mode %v, want 4321:4322 %v", serial, when, st.Uid, st.Gid, fi.Mode(), 0o640|os.ModeSetgid)
			}
		}
		f.mustApply(edit("a.txt", "a", "b"))
		check("an edit")
		id := f.mustApply(write("a.txt", "c\n")).ChangeID
		check("a write")
		if _, err := f.j.Rollback(context.Background(), who, id, false); err != nil {
			t.Fatal(err)
		}
		check("a rollback")
	}
}

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/testfs"
)

// A rollback the journal cannot record (its state on a read-only file
// system) tells the owner why, not the model's "try again, and tell the
// owner". It needs a file system of its own to make read-only (a tmpfs,
// as root).
func TestRollbackSaysWhyTheJournalFailed(t *testing.T) {
	home := testfs.SmallDisk(t, "8m")
	t.Setenv(config.HomeEnv, home)
	dirs, err := config.DefaultDirs()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	id := writeThroughJournal(t, dirs, root, "a.txt", "new\n")
	if err := syscall.Mount("", home, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot make the file system read-only: %v", err)
	}

	var out, errw bytes.Buffer
	code := run(context.Background(), []string{"rollback", "--root", root, id}, strings.NewReader(""), &out, &errw)
	if code != exitError || !strings.Contains(errw.String(), "nothing was changed") || !strings.Contains(errw.String(), "read-only file system") ||
		strings.Contains(errw.String(), "tell the owner") {
		t.Errorf("a rollback on a read-only journal: %d %q", code, errw.String())
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "new\n" {
		t.Errorf("a.txt changed: %q", b)
	}
	out.Reset()
	if code := run(context.Background(), []string{"rollback", "--root", root}, strings.NewReader(""), &out, &errw); code != 0 || !strings.Contains(out.String(), id) {
		t.Errorf("the list on a read-only journal: %d %q", code, out.String())
	}
}

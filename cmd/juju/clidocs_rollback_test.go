package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// juju rollback --force without a change id is a wrong command line, as
// --after without one is: the owner who typed it meant to undo something,
// and a list (status 0) would read as done.
func TestRollbackForceNeedsAChange(t *testing.T) {
	dirs := jujuHome(t)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("old\n"), 0o644)
	writeThroughJournal(t, dirs, root, "a.txt", "new\n")
	var out, errw bytes.Buffer
	code := run(context.Background(), []string{"rollback", "--root", root, "--force"}, strings.NewReader(""), &out, &errw)
	if code != exitUsage || !strings.Contains(errw.String(), "--force needs a change id") {
		t.Errorf("juju rollback --force: status %d\nstdout: %s\nstderr: %s", code, out.String(), errw.String())
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "new\n" {
		t.Errorf("a.txt holds %q", b)
	}
}

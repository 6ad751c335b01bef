package test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/jujutools/juju/internal/testfs"
)

// A root, or a folder in one, on a file system mounted read-only (a
// read-only bind mount, a CD image, a container's lower layer) refuses
// every write with EROFS, which the write tools answered INTERNAL, "an
// unexpected file system error; try again": a retry that cannot succeed.
// It is PATH_DENIED, saying the file system is read-only.
func TestReadOnlyMountIsNamed(t *testing.T) {
	root := testfs.SmallDisk(t, "1m")
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("", root, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot make the file system read-only here: %v", err)
	}
	s := start(t, root, "--mode", "trusted")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"edit_file", map[string]any{"path": "a.txt", "oldString": "one", "newString": "two"}},
		{"write_file", map[string]any{"path": "b.txt", "content": "new\n"}},
		{"delete_path", map[string]any{"path": "a.txt"}},
		{"move_path", map[string]any{"path": "a.txt", "destination": "c.txt"}},
		{"make_directory", map[string]any{"path": "d"}},
	} {
		msg := s.fail(c.tool, c.args, "PATH_DENIED")
		if !strings.Contains(msg, "read-only") || strings.Contains(msg, "try again;") {
			t.Errorf("%s does not say the file system is read-only: %s", c.tool, msg)
		}
	}
	if got := disk(t, root, "a.txt"); got != "one\n" {
		t.Fatalf("a.txt holds %q", got)
	}
}

package test

import (
	"os"
	"path/filepath"
	"testing"
)

// A path ending in "/." names a folder, as one ending in "/" does (the
// kernel answers ENOTDIR for "a.txt/."): after a file it is NOT_FOUND to
// the read tools, where read_file and file_info read and hashed the file,
// as the write tools already refused it.
func TestPathEndingInSlashDotNamesAFolder(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n", "link": "->a.txt"})
	s := start(t, root, "--mode", "trusted")
	for _, p := range []string{"a.txt/.", filepath.Join(root, "a.txt") + "/.", "link/.", "sub/b.txt/."} {
		s.fail("read_file", map[string]any{"path": p}, "NOT_FOUND")
		s.fail("file_info", map[string]any{"path": p}, "NOT_FOUND")
		s.fail("write_file", map[string]any{"path": p, "content": "changed\n"}, "INVALID_ARGUMENT")
	}
	if b, err := os.ReadFile(filepath.Join(root, "a.txt")); err != nil || string(b) != "a\n" {
		t.Errorf("a.txt holds %q (%v)", b, err)
	}
	s.ok("list_directory", map[string]any{"path": "sub/."})
	s.ok("read_file", map[string]any{"path": "sub/./b.txt"})
}

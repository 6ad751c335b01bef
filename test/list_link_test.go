//go:build unix

package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// list_directory on a link to a file names the path asked for, says it is
// a link and where it leads, and what to call instead.
func TestListDirectoryOnALinkToAFileNamesTheLink(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	if err := os.Symlink("a.txt", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	s := start(t, root)
	msg := s.fail("list_directory", map[string]any{"path": "link"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, `"link" is a link to the file "a.txt"`) || !strings.Contains(msg, "read_file") || !strings.Contains(msg, "file_info") {
		t.Errorf("message: %s", msg)
	}
	msg = s.fail("list_directory", map[string]any{"path": "a.txt"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, `"a.txt" is a file, not a folder`) {
		t.Errorf("a plain file: %s", msg)
	}
}

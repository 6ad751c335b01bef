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

// The walkers asked to start at a link to a file name it as list_directory
// does: by the path asked for, as a link to its target, not by the target
// alone, a file the model never named.
func TestWalkersOnALinkToAFileNameTheLink(t *testing.T) {
	root := workspace(t, map[string]string{"dir/a.txt": "hello\n"})
	if err := os.Symlink("dir/a.txt", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	s := start(t, root, "--mode", "trusted")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"glob_files", map[string]any{"pattern": "*", "path": "link"}},
		{"replace_in_files", map[string]any{"oldString": "hello", "newString": "bye", "fileGlob": "*", "path": "link"}},
		{"project_overview", map[string]any{"path": "link"}},
	} {
		msg := s.fail(c.tool, c.args, "INVALID_ARGUMENT")
		if !strings.Contains(msg, `"link" is a link to the file "dir/a.txt", not a folder`) {
			t.Errorf("%s on the link: %s", c.tool, msg)
		}
		c.args["path"] = "dir/a.txt"
		msg = s.fail(c.tool, c.args, "INVALID_ARGUMENT")
		if !strings.Contains(msg, `"dir/a.txt" is a file, not a folder`) {
			t.Errorf("%s on the file: %s", c.tool, msg)
		}
	}
}

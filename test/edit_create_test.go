package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// edit_file with an empty oldString does what Claude Code's Edit does: it
// creates a missing file (and its folders) or fills an empty one with
// newString, journaled like any edit; on a file with content it is
// INVALID_ARGUMENT saying what to pass instead. It was refused by the
// input schema, with no word of write_file.
func TestEditEmptyOldStringCreates(t *testing.T) {
	root := workspace(t, map[string]string{"empty.txt": "", "full.txt": "text\n", ".env": ""})
	s := start(t, root, "--mode", "trusted")
	id := changeID(t, s, "edit_file", map[string]any{"path": "new/dir/a.go", "oldString": "", "newString": "package a\n"})
	if got := disk(t, root, "new/dir/a.go"); got != "package a\n" {
		t.Fatalf("created: %q", got)
	}
	s.ok("edit_file", map[string]any{"path": "empty.txt", "oldString": "", "newString": "filled\n"})
	if got := disk(t, root, "empty.txt"); got != "filled\n" {
		t.Fatalf("filled: %q", got)
	}
	msg := s.fail("edit_file", map[string]any{"path": "full.txt", "oldString": "", "newString": "x"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "already has content") || !strings.Contains(msg, "write_file") {
		t.Errorf("a file with content: %s", msg)
	}
	s.fail("edit_file", map[string]any{"path": ".env", "oldString": "", "newString": "K=1\n"}, "SECRET_DENIED")
	s.fail("edit_file", map[string]any{"path": "../out.txt", "oldString": "", "newString": "x"}, "PATH_DENIED")
	if disk(t, root, "full.txt") != "text\n" || disk(t, root, ".env") != "" {
		t.Fatal("a refused edit wrote")
	}
	s.ok("rollback_changes", map[string]any{"changeId": id})
	absent(t, root, "new")
}

// A path starting with "~/" means the home folder to whoever wrote it;
// juju does not expand it, and no longer makes a folder named "~" in the
// workspace for it (write_file, make_directory, move_path), which someone
// then types `rm -rf ~` to remove. A "~" that exists is written into.
func TestNoTildeFolderIsMade(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	s := start(t, root, "--mode", "trusted")
	msg := s.fail("write_file", map[string]any{"path": "~/notes.txt", "content": "x"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "does not expand ~") {
		t.Errorf("message: %s", msg)
	}
	if msg := s.fail("make_directory", map[string]any{"path": "~"}, "INVALID_ARGUMENT"); !strings.Contains(msg, `a folder named "~"`) {
		t.Errorf("make_directory ~: %s", msg)
	}
	// A file named "~" is refused as a file, not called a folder.
	if msg := s.fail("write_file", map[string]any{"path": "~", "content": "x"}, "INVALID_ARGUMENT"); !strings.Contains(msg, `a file named "~"`) {
		t.Errorf("write_file ~: %s", msg)
	}
	if msg := s.fail("write_file", map[string]any{"path": "file:", "content": "x"}, "INVALID_ARGUMENT"); !strings.Contains(msg, `a file named "file:"`) {
		t.Errorf("write_file file:: %s", msg)
	}
	s.fail("make_directory", map[string]any{"path": "~/a/b"}, "INVALID_ARGUMENT")
	s.fail("move_path", map[string]any{"path": "a.txt", "destination": "~/a.txt"}, "INVALID_ARGUMENT")
	// A move's destination is a new name as much as a write's is.
	if msg := s.fail("move_path", map[string]any{"path": "a.txt", "destination": "~"}, "INVALID_ARGUMENT"); !strings.Contains(msg, `a file named "~"`) {
		t.Errorf("move_path to ~: %s", msg)
	}
	if msg := s.fail("move_path", map[string]any{"path": "a.txt", "destination": "file:"}, "INVALID_ARGUMENT"); !strings.Contains(msg, `a file named "file:"`) {
		t.Errorf("move_path to file:: %s", msg)
	}
	if msg := s.fail("move_path", map[string]any{"path": "a.txt", "destination": "b.txt "}, "INVALID_ARGUMENT"); !strings.Contains(msg, "white space") {
		t.Errorf("move_path to a name ending in a space: %s", msg)
	}
	s.fail("edit_file", map[string]any{"path": "~/new.txt", "oldString": "", "newString": "x"}, "INVALID_ARGUMENT")
	absent(t, root, "~")
	s.ok("write_file", map[string]any{"path": "sub/~/x.txt", "content": "x"}) // not at the top: a name like any
	if err := os.Mkdir(filepath.Join(root, "~"), 0o755); err != nil {
		t.Fatal(err)
	}
	s.ok("write_file", map[string]any{"path": "~/notes.txt", "content": "x"})
}

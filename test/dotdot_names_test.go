//go:build unix

package test

import (
	"strings"
	"testing"
)

// TestDotDotAfterALinkNamesOneFile holds that delete_path and move_path
// take a path with ".." after a link as every other tool does: "l2/../a",
// l2 a link to sub/deep, is sub/a for read_file, write_file and the
// system. The two tools cleaned the path as text first, to a at the root,
// so delete_path deleted a file read_file had never shown under that name,
// and a move landed beside the link instead of where write_file writes.
func TestDotDotAfterALinkNamesOneFile(t *testing.T) {
	root := workspace(t, map[string]string{
		"sub/deep/.keep": "",
		"l2":             "->sub/deep",
		"a.txt":          "root a\n",
		"sub/a.txt":      "sub a\n",
		"b.txt":          "root b\n",
		"sub/c.txt":      "sub c\n",
		"c.txt":          "root c\n",
		"d.txt":          "root d\n",
	})
	s := start(t, root)
	if got := s.ok("read_file", map[string]any{"path": "l2/../a.txt"}); !strings.Contains(got, "sub a") {
		t.Fatalf("read_file l2/../a.txt: %s", got)
	}
	s.ok("delete_path", map[string]any{"path": "l2/../a.txt"})
	absent(t, root, "sub/a.txt")
	if disk(t, root, "a.txt") != "root a\n" {
		t.Fatal("delete_path l2/../a.txt touched a.txt at the root")
	}

	s.ok("write_file", map[string]any{"path": "l2/../w.txt", "content": "w\n"})
	s.ok("move_path", map[string]any{"path": "b.txt", "destination": "l2/../b2.txt"})
	if disk(t, root, "sub/w.txt") != "w\n" || disk(t, root, "sub/b2.txt") != "root b\n" {
		t.Fatal("write_file and move_path put l2/../ in different folders")
	}
	absent(t, root, "b2.txt")

	s.ok("move_path", map[string]any{"path": "l2/../c.txt", "destination": "c-moved.txt"})
	if disk(t, root, "c-moved.txt") != "sub c\n" || disk(t, root, "c.txt") != "root c\n" {
		t.Fatal("move_path l2/../c.txt moved another file than sub/c.txt")
	}
	absent(t, root, "sub/c.txt")

	// A name ending in ".." names the folder above another: through l2
	// it is sub, not the root the text suggests, and rm refuses it.
	s.fail("delete_path", map[string]any{"path": "l2/..", "recursive": true}, "INVALID_ARGUMENT")
	s.fail("move_path", map[string]any{"path": "l2/..", "destination": "moved"}, "INVALID_ARGUMENT")
	if disk(t, root, "sub/w.txt") != "w\n" {
		t.Fatal("a refused delete of l2/.. changed sub")
	}

	// A missing folder before ".." is missing for every tool, as for the
	// system, not skipped.
	s.fail("write_file", map[string]any{"path": "missing/../w2.txt", "content": "w\n"}, "NOT_FOUND")
	s.fail("delete_path", map[string]any{"path": "missing/../d.txt"}, "NOT_FOUND")
	s.fail("move_path", map[string]any{"path": "d.txt", "destination": "missing/../d2.txt"}, "NOT_FOUND")
	if disk(t, root, "d.txt") != "root d\n" {
		t.Fatal("a path through a missing folder changed d.txt")
	}
	absent(t, root, "d2.txt")
}

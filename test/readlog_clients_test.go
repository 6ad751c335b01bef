package test

import (
	"strings"
	"testing"
)

// juju serve serves several clients over one workspace, and what one
// client read is its own view: a change another client makes through
// juju makes that view stale, as a change made outside juju does. The
// read log was one for every client, and each change juju made refreshed
// it, so client A's write_file, from a view older than client B's edit,
// silently replaced B's edit. A client's own changes still keep its view
// fresh.
func TestReadsAreEachClients(t *testing.T) {
	root := workspace(t, map[string]string{"f.txt": "line one\nline two\n"})
	srv := startServe(t, root, "--mode", "trusted")
	a := srv.connect(t, "claude-code", "1")
	b := srv.connect(t, "cursor", "1")
	a.ok("read_file", map[string]any{"path": "f.txt"})
	b.ok("read_file", map[string]any{"path": "f.txt"})
	b.ok("edit_file", map[string]any{"path": "f.txt", "oldString": "line two", "newString": "line two, edited by B"})
	b.ok("edit_file", map[string]any{"path": "f.txt", "oldString": "edited by B", "newString": "edited twice by B"})
	msg := a.fail("write_file", map[string]any{"path": "f.txt", "content": "line one, rewritten by A\nline two\n"}, "FILE_CHANGED")
	if !strings.Contains(msg, "since it was last read") {
		t.Errorf("message: %s", msg)
	}
	if got := disk(t, root, "f.txt"); got != "line one\nline two, edited twice by B\n" {
		t.Fatalf("B's edit was overwritten: %q", got)
	}
	a.ok("read_file", map[string]any{"path": "f.txt"})
	a.ok("write_file", map[string]any{"path": "f.txt", "content": "line one, rewritten by A\nline two, edited twice by B\n"})
	a.ok("edit_file", map[string]any{"path": "f.txt", "oldString": "rewritten", "newString": "written"})
}

// A rollback puts back a content its client may never have read: a write
// from the view it had before is FILE_CHANGED until it reads the file
// again, as after any change it did not write itself.
func TestRollbackIsNotARead(t *testing.T) {
	root := workspace(t, map[string]string{"f.txt": "one\n"})
	s := start(t, root, "--mode", "trusted")
	s.ok("read_file", map[string]any{"path": "f.txt"})
	id := changeID(t, s, "edit_file", map[string]any{"path": "f.txt", "oldString": "one", "newString": "two"})
	s.ok("rollback_changes", map[string]any{"changeId": id})
	s.fail("write_file", map[string]any{"path": "f.txt", "content": "two, then three\n"}, "FILE_CHANGED")
	if got := disk(t, root, "f.txt"); got != "one\n" {
		t.Fatalf("the rolled back file was overwritten: %q", got)
	}
	s.ok("read_file", map[string]any{"path": "f.txt"})
	s.ok("write_file", map[string]any{"path": "f.txt", "content": "one, then three\n"})
}

// Two conversations of one connector are two MCP sessions of one client:
// one name, one token. Each is a model's view of the files of its own, so
// a write from the first's view, older than the second's write, is
// FILE_CHANGED, as between two clients. The view was the client's, shared
// by its sessions: the second's read counted for the first, and the
// first's write_file silently replaced the second's.
func TestReadsAreEachSessions(t *testing.T) {
	root := workspace(t, map[string]string{"f.txt": "line one\nline two\n"})
	srv := startServe(t, root, "--mode", "trusted")
	a := srv.connect(t, "chatgpt", "2025-11-25")
	b := srv.connect(t, "chatgpt", "2025-11-25")
	a.ok("read_file", map[string]any{"path": "f.txt"})
	b.ok("read_file", map[string]any{"path": "f.txt"})
	b.ok("write_file", map[string]any{"path": "f.txt", "content": "line one\nline two, written in the second conversation\n"})
	a.fail("write_file", map[string]any{"path": "f.txt", "content": "line one, written in the first\nline two\n"}, "FILE_CHANGED")
	if got := disk(t, root, "f.txt"); got != "line one\nline two, written in the second conversation\n" {
		t.Fatalf("the second session's write was overwritten: %q", got)
	}
	// Each session's own writes keep its view fresh.
	b.ok("edit_file", map[string]any{"path": "f.txt", "oldString": "written in", "newString": "edited in"})
	a.ok("read_file", map[string]any{"path": "f.txt"})
	a.ok("write_file", map[string]any{"path": "f.txt", "content": "line one, written in the first\nline two, edited in the second conversation\n"})
	a.ok("edit_file", map[string]any{"path": "f.txt", "oldString": "written in the first", "newString": "edited in the first"})
	b.fail("edit_file", map[string]any{"path": "f.txt", "oldString": "line two", "newString": "line 2"}, "FILE_CHANGED")
}

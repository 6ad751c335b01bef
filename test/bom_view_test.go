package test

import (
	"strings"
	"testing"
)

// TestBOMFileReadAsEditsMatch checks that a file starting with a UTF-8
// byte-order mark is shown by read_file, read_files and the diffs as the
// text edits and patches match, without the mark: read_file showed it at
// the start of line 1, so the first line copied as shown was NO_MATCH in
// edit_file and CONFLICT in apply_patch, and a diff juju made of the file
// could not be applied back.
func TestBOMFileReadAsEditsMatch(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	root := workspace(t, map[string]string{"bom.txt": bom + "hello\nworld\n"})
	s := start(t, root)

	got := s.ok("read_file", map[string]any{"path": "bom.txt"})
	if strings.Contains(got, "\ufeff") || !strings.HasPrefix(got, "hello\nworld\n") {
		t.Fatalf("read_file shows the byte-order mark: %q", got)
	}
	if !strings.Contains(got, "byte-order mark") {
		t.Fatalf("read_file does not say the file keeps a byte-order mark: %q", got)
	}
	if got := s.ok("read_files", map[string]any{"paths": []string{"bom.txt"}}); strings.Contains(got, "\ufeff") {
		t.Fatalf("read_files shows the byte-order mark: %q", got)
	}
	if got := s.ok("read_file", map[string]any{"path": "bom.txt", "numbered": true}); !strings.Contains(got, "     1\thello\n") {
		t.Fatalf("numbered read_file shows the byte-order mark: %q", got)
	}

	// Line 1 as read_file showed it is what edit_file matches.
	first := strings.SplitAfter(got, "\n")[0]
	res := s.call("edit_file", map[string]any{"path": "bom.txt", "oldString": first, "newString": "HELLO\n"})
	if res.IsError {
		t.Fatalf("edit_file of line 1 as read_file shows it: %s", text(res))
	}
	if d := text(res); strings.Contains(d, "\ufeff") {
		t.Fatalf("the edit's diff shows the byte-order mark: %q", d)
	}
	if got := disk(t, root, "bom.txt"); got != bom+"HELLO\nworld\n" {
		t.Fatalf("bytes after the edit: %q", got)
	}

	// A diff juju shows of the file is a patch apply_patch takes.
	plan := s.call("preview_changes", map[string]any{"operations": []map[string]any{{"op": "edit", "path": "bom.txt", "oldString": "world", "newString": "there"}}})
	if plan.IsError {
		t.Fatal(text(plan))
	}
	diff, _ := structured(t, plan)["diff"].(string)
	if strings.Contains(diff, "\ufeff") {
		t.Fatalf("the plan's diff shows the byte-order mark: %q", diff)
	}
	if res := s.call("apply_patch", map[string]any{"patch": diff}); res.IsError {
		t.Fatalf("apply_patch of juju's own diff: %s", text(res))
	}
	if got := disk(t, root, "bom.txt"); got != bom+"HELLO\nthere\n" {
		t.Fatalf("bytes after the patch: %q", got)
	}

	// A change that adds or drops the mark still shows it.
	res = s.call("write_file", map[string]any{"path": "plain.txt", "content": "\ufeffnew\n"})
	if d := text(res); res.IsError || !strings.Contains(d, "+\ufeffnew") {
		t.Fatalf("a file made with a byte-order mark should show it in its diff: %q", d)
	}
}

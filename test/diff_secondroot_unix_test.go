//go:build unix

package test

import (
	"path/filepath"
	"strings"
	"testing"
)

// A file in a root other than the first is named by its absolute path,
// and its diff headers read "--- a//tmp/b/x.go": git drops the leading
// slash of such a name ("a/tmp/b/x.go", as git diff --no-index writes
// it). The diffs of edit_file, preview_changes and change_history now do
// too, and apply_patch, given such a diff back, applies it to that file.
func TestDiffOfAFileInASecondRootReadsAsGitWritesIt(t *testing.T) {
	a := workspace(t, map[string]string{"a.txt": "a\n"})
	b := workspace(t, map[string]string{"x.go": "package x\n\nvar v = 1\n", "sp ace.go": "s\n"})
	s := start(t, a, "--root", b)
	abs := filepath.ToSlash(filepath.Join(b, "x.go"))
	name := strings.TrimPrefix(abs, "/")
	headers := "--- a/" + name + "\n+++ b/" + name + "\n"

	res := s.call("edit_file", map[string]any{"path": abs, "oldString": "v = 1", "newString": "v = 2"})
	if res.IsError {
		t.Fatalf("edit_file: %s", text(res))
	}
	sc := structured(t, res)
	diff, _ := sc["diff"].(string)
	if !strings.HasPrefix(diff, headers) {
		t.Fatalf("edit_file's diff of %s begins so, want %q:\n%s", abs, headers, diff)
	}
	id, _ := sc["changeId"].(string)
	if got := s.ok("change_history", map[string]any{"changeId": id}); !strings.Contains(got, headers) || strings.Contains(got, "a//") {
		t.Errorf("change_history's diff of %s does not begin %q:\n%s", abs, headers, got)
	}
	if got := s.ok("preview_changes", map[string]any{"operations": []map[string]any{
		{"op": "edit", "path": abs, "oldString": "v = 2", "newString": "v = 3"},
	}}); !strings.Contains(got, headers) || strings.Contains(got, "a//") {
		t.Errorf("preview_changes' diff of %s does not begin %q:\n%s", abs, headers, got)
	}
	// The diff given back applies to the same file, after its rollback.
	s.ok("rollback_changes", map[string]any{"changeId": id})
	s.ok("apply_patch", map[string]any{"patch": diff})
	if got := disk(t, b, "x.go"); got != "package x\n\nvar v = 2\n" {
		t.Errorf("the diff given back to apply_patch left %s holding %q", abs, got)
	}
	if got := disk(t, a, "a.txt"); got != "a\n" {
		t.Errorf("the first root's a.txt holds %q", got)
	}
	// A name git quotes, and a new file, by the same rule.
	sp := filepath.ToSlash(filepath.Join(b, "sp ace.go"))
	res = s.call("apply_patch", map[string]any{"patch": "--- /dev/null\n+++ b/" + strings.TrimPrefix(filepath.ToSlash(filepath.Join(b, "new.go")), "/") + "\n@@ -0,0 +1 @@\n+n\n"})
	if res.IsError || disk(t, b, "new.go") != "n\n" {
		t.Errorf("a new file named as git names it in the second root: %s", text(res))
	}
	d2, _ := structured(t, s.call("write_file", map[string]any{"path": sp, "content": "S\n"}))["diff"].(string)
	if want := "--- a/" + strings.TrimPrefix(sp, "/") + "\n"; !strings.HasPrefix(d2, want) {
		t.Errorf("write_file's diff of %s begins so, want %q:\n%s", sp, want, d2)
	}
}

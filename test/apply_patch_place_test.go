package test

import (
	"fmt"
	"strings"
	"testing"
)

// Through the real binary: apply_patch puts a hunk without context lines
// exactly where it says or refuses the whole patch, and a Codex patch is
// refused with the shape of a unified diff spelled out.
func TestApplyPatchInsertionsAndCodex(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "1\n2\n3\n4\n5\n6\n", "b.txt": "b\n"})
	s := start(t, root, "--mode", "trusted")
	// The second hunk inserts after line 2, above the first hunk: it went
	// after line 5, and the patch was reported applied.
	patch := "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-b\n+B\n--- a/a.txt\n+++ b/a.txt\n@@ -4,2 +4,2 @@\n 4\n-5\n+five\n@@ -2,0 +3 @@\n+2b\n"
	msg := s.fail("apply_patch", map[string]any{"patch": patch}, "CONFLICT")
	if !strings.Contains(msg, "hunk 2") || !strings.Contains(msg, "in order") {
		t.Errorf("message: %s", msg)
	}
	if disk(t, root, "a.txt") != "1\n2\n3\n4\n5\n6\n" || disk(t, root, "b.txt") != "b\n" {
		t.Fatal("a refused patch wrote")
	}
	s.ok("apply_patch", map[string]any{"patch": "--- a/a.txt\n+++ b/a.txt\n@@ -2,0 +3 @@\n+2b\n@@ -4,2 +5,2 @@\n 4\n-5\n+five\n"})
	if got := disk(t, root, "a.txt"); got != "1\n2\n2b\n3\n4\nfive\n6\n" {
		t.Fatalf("in place: %q", got)
	}
	msg = s.fail("apply_patch", map[string]any{"patch": "*** Begin Patch\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch\n"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "Codex") || !strings.Contains(msg, "+++ b/PATH") {
		t.Errorf("Codex patch: %s", msg)
	}
}

// Through the real binary: a hunk found at another line than its header
// names says so, as git apply's "Hunk #2 succeeded at 14 (offset 3
// lines)" does, in the text and the structured result, for the patch and
// for its dry run and preview alike; a hunk in place says nothing.
func TestApplyPatchSaysHunkOffsets(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	orig := b.String()
	// Three lines were added at the top since the patch was made: its
	// second hunk names line 11, the lines are at 14 now.
	root := workspace(t, map[string]string{"a.txt": "x\ny\nz\n" + orig, "b.txt": orig})
	s := start(t, root, "--mode", "trusted")
	patch := "--- a/a.txt\n+++ b/a.txt\n@@ -11,3 +11,3 @@\n line 11\n-line 12\n+line twelve\n line 13\n" +
		"--- a/b.txt\n+++ b/b.txt\n@@ -2,2 +2,2 @@\n line 2\n-line 3\n+line three\n"
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"apply_patch", map[string]any{"patch": patch, "dryRun": true}},
		{"preview_changes", map[string]any{"patch": patch}},
		{"apply_patch", map[string]any{"patch": patch}},
	} {
		res := s.call(tc.tool, tc.args)
		if res.IsError {
			t.Fatalf("%s: %s", tc.tool, text(res))
		}
		if msg := text(res); !strings.Contains(msg, "hunk #1 of a.txt applied at line 14 of the file as it was, not at line 11 as its header says (offset 3 lines)") || strings.Contains(msg, "of b.txt applied") {
			t.Errorf("%s text: %s", tc.tool, msg)
		}
		offs, _ := structured(t, res)["hunkOffsets"].([]any)
		if len(offs) != 1 {
			t.Fatalf("%s hunkOffsets: %v", tc.tool, offs)
		}
		o := offs[0].(map[string]any)
		if o["path"] != "a.txt" || o["hunk"] != 1.0 || o["line"] != 14.0 || o["offset"] != 3.0 {
			t.Errorf("%s hunkOffsets[0]: %v", tc.tool, o)
		}
	}
	if got := disk(t, root, "a.txt"); !strings.Contains(got, "line 11\nline twelve\nline 13\n") {
		t.Fatalf("a.txt: %q", got)
	}
	// A hunk in place: nothing said.
	res := s.call("apply_patch", map[string]any{"patch": "--- a/b.txt\n+++ b/b.txt\n@@ -5,1 +5,1 @@\n-line 5\n+line five\n"})
	if _, ok := structured(t, res)["hunkOffsets"]; ok || strings.Contains(text(res), "hunk #") {
		t.Errorf("a hunk in place: %s", text(res))
	}
}

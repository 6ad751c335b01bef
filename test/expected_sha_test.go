package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An expectedSha256 that is not a whole sha256 (the shortened one a
// FILE_CHANGED message shows, say) is INVALID_ARGUMENT saying what to
// pass, not FILE_CHANGED, which sent the model to read the file again and
// pass the same thing.
func TestExpectedSha256MustBeWhole(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "one\n"})
	s := start(t, root, "--mode", "trusted")
	for _, bad := range []string{sha("one\n")[:12], sha("one\n")[:12] + "…", "not a hash"} {
		msg := s.fail("edit_file", map[string]any{"path": "a.txt", "oldString": "one", "newString": "two", "expectedSha256": bad}, "INVALID_ARGUMENT")
		if !strings.Contains(msg, "64 hex digits") {
			t.Errorf("%q: %s", bad, msg)
		}
	}
	s.fail("delete_path", map[string]any{"path": "a.txt", "expectedSha256": "abc"}, "INVALID_ARGUMENT")
	s.ok("edit_file", map[string]any{"path": "a.txt", "oldString": "one", "newString": "two", "expectedSha256": strings.ToUpper(sha("one\n"))})
	if got := disk(t, root, "a.txt"); got != "two\n" {
		t.Fatalf("bytes: %q", got)
	}
}

// An expectedSha256 given with delete_path for a folder or a symlink is
// INVALID_ARGUMENT saying what is there, not FILE_CHANGED saying it "is
// not there now": a link's hash as file_info gives it (its target's)
// never matched, and the model was sent to read the folder again.
func TestExpectedSha256OfAFolderOrALink(t *testing.T) {
	root := workspace(t, map[string]string{"d/x": "x\n", "f.txt": "f\n"})
	if err := os.Symlink("f.txt", filepath.Join(root, "lf")); err != nil {
		t.Skip(err)
	}
	s := start(t, root, "--mode", "trusted")
	info := s.call("file_info", map[string]any{"path": "lf"})
	hash, _ := structured(t, info)["sha256"].(string)
	if hash != sha("f\n") {
		t.Fatalf("file_info of the link: sha256 %q", hash)
	}
	for path, says := range map[string]string{"lf": `"lf" is a symlink`, "d": `"d" is a folder`} {
		msg := s.fail("delete_path", map[string]any{"path": path, "recursive": true, "expectedSha256": hash}, "INVALID_ARGUMENT")
		if !strings.Contains(msg, says) || !strings.Contains(msg, "leave expectedSha256 out") {
			t.Errorf("%s: %s", path, msg)
		}
	}
	s.ok("delete_path", map[string]any{"path": "lf"})
	if disk(t, root, "f.txt") != "f\n" {
		t.Fatal("the link's target changed")
	}
}

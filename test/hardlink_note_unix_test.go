//go:build unix

package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteSaysWhichHardLinksKeepTheOldContent holds juju to RATIONALE
// "A hard link is broken, not written through": a write renames a new
// file over the name, so the file's other names keep the old content.
// That happened without a word; now the result says so, in its text and
// in the file's otherLinks, for edit_file and write_file alike, and says
// nothing of links for a file of one name.
func TestWriteSaysWhichHardLinksKeepTheOldContent(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "one\n", "solo.txt": "one\n"})
	for _, n := range []string{"b.txt", "c.txt"} {
		if err := os.Link(filepath.Join(root, "a.txt"), filepath.Join(root, n)); err != nil {
			t.Fatal(err)
		}
	}
	s := start(t, root)
	check := func(tool string, args map[string]any, links int) {
		t.Helper()
		res := s.call(tool, args)
		if res.IsError {
			t.Fatalf("%s: %s", tool, text(res))
		}
		files, _ := structured(t, res)["files"].([]any)
		if len(files) != 1 {
			t.Fatalf("%s: files = %v", tool, files)
		}
		got, _ := files[0].(map[string]any)["otherLinks"].(float64)
		if int(got) != links {
			t.Errorf("%s %v: otherLinks = %v, want %d", tool, args["path"], files[0], links)
		}
		note := strings.Contains(text(res), "keep the old content") || strings.Contains(text(res), "keeps the old content")
		if note != (links > 0) {
			t.Errorf("%s %v: text says of links %v, want %v:\n%s", tool, args["path"], note, links > 0, text(res))
		}
	}
	check("edit_file", map[string]any{"path": "a.txt", "oldString": "one", "newString": "two"}, 2)
	if !strings.Contains(s.ok("read_file", map[string]any{"path": "b.txt"}), "one") {
		t.Fatalf("b.txt no longer holds the old content")
	}
	// a.txt is now a file of its own; b.txt and c.txt are still two names.
	check("write_file", map[string]any{"path": "b.txt", "content": "three\n"}, 1)
	check("edit_file", map[string]any{"path": "solo.txt", "oldString": "one", "newString": "two"}, 0)
	check("write_file", map[string]any{"path": "solo.txt", "content": "three\n"}, 0)
	check("write_file", map[string]any{"path": "new.txt", "content": "new\n"}, 0)
}

// Names of one file that the same change writes do not keep the old
// content: replace_in_files over a file and its hard link changed both
// and said of each that its other name kept the old content. A name the
// change leaves alone is still counted.
func TestHardLinksChangedTogetherAreNotSaidToKeepTheOldContent(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "one\n", "other/c.txt": "one\n"})
	for _, n := range []string{"b.txt", "other/d.txt"} {
		if err := os.Link(filepath.Join(root, "a.txt"), filepath.Join(root, n)); err != nil {
			t.Fatal(err)
		}
	}
	s := start(t, root, "--mode", "trusted")
	res := s.call("replace_in_files", map[string]any{"oldString": "one", "newString": "two", "fileGlob": "*.txt", "dryRun": false})
	if res.IsError {
		t.Fatalf("replace_in_files: %s", text(res))
	}
	files, _ := structured(t, res)["files"].([]any)
	if len(files) != 2 {
		t.Fatalf("files = %v", files)
	}
	for _, f := range files {
		// a.txt and b.txt both changed; other/d.txt, a third name, keeps "one".
		if got, _ := f.(map[string]any)["otherLinks"].(float64); got != 1 {
			t.Errorf("%v: otherLinks %v, want 1 (other/d.txt)", f.(map[string]any)["path"], got)
		}
	}
	if strings.Count(text(res), "its 1 other name (a hard link) keeps the old content") != 2 {
		t.Errorf("the text does not count other/d.txt alone:\n%s", text(res))
	}
	if disk(t, root, "other/d.txt") != "one\n" || disk(t, root, "b.txt") != "two\n" {
		t.Fatal("unexpected contents")
	}
}

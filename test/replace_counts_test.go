package test

import (
	"strings"
	"testing"
)

// replace_in_files gives every file's count of replacements, as its
// description promises, dry run or not: the files it writes whole had
// none, while a UTF-16 file, which the host edits, had its own.
func TestReplaceInFilesCountsEachFile(t *testing.T) {
	root := workspace(t, map[string]string{
		"p.txt": "aa\naa x aa\n",
		"c.txt": "aa\r\nbb\r\n",
		"u.txt": "\xff\xfea\x00a\x00 \x00a\x00a\x00\n\x00",
	})
	s := start(t, root, "--mode", "trusted")
	want := map[string]float64{"p.txt": 3, "c.txt": 1, "u.txt": 2}
	for _, dry := range []bool{true, false} {
		res := s.call("replace_in_files", map[string]any{"oldString": "aa", "newString": "b", "fileGlob": "*.txt", "dryRun": dry})
		if res.IsError {
			t.Fatalf("dryRun %v: %s", dry, text(res))
		}
		files, _ := structured(t, res)["files"].([]any)
		if len(files) != len(want) {
			t.Fatalf("dryRun %v: files %v", dry, files)
		}
		for _, f := range files {
			m := f.(map[string]any)
			path, _ := m["path"].(string)
			if got, _ := m["replacements"].(float64); got != want[path] {
				t.Errorf("dryRun %v: %s has replacements %v, want %v", dry, path, m["replacements"], want[path])
			}
		}
		if strings.Count(text(res), " replacement(s)\n") != len(want) {
			t.Errorf("dryRun %v: the text does not count every file:\n%s", dry, text(res))
		}
	}
}

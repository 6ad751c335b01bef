package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// replace_in_files stops at the bounds of one change itself, with
// TOO_LARGE and a sentence saying to narrow fileGlob: 120 MiB of new
// contents (20 files of 1.5 MiB of "a", each made "bbbb") once trapped the
// plugin out of memory, and 1,001 changed files met the host's bare "more
// than 1000 operations". Nothing is written either way.
func TestReplaceInFilesStopsAtChangeBounds(t *testing.T) {
	root := t.TempDir()
	big := strings.Repeat("a", 3<<19)
	for i := range 20 {
		write(t, root, fmt.Sprintf("big/f%02d.txt", i), big)
	}
	for i := range 1001 {
		write(t, root, fmt.Sprintf("many/f%04d.txt", i), "a\n")
	}
	s := start(t, root)

	msg := s.fail("replace_in_files", map[string]any{"oldString": "a", "newString": "bbbb", "fileGlob": "*.txt", "path": "big"}, "TOO_LARGE")
	if !strings.Contains(msg, "64 MiB") || !strings.Contains(msg, "Narrow fileGlob") {
		t.Fatalf("120 MiB of new contents: %s", msg)
	}
	msg = s.fail("replace_in_files", map[string]any{"oldString": "a", "newString": "b", "fileGlob": "*.txt", "path": "many"}, "TOO_LARGE")
	if !strings.Contains(msg, "more than 1000 of the files") || !strings.Contains(msg, "Narrow fileGlob") {
		t.Fatalf("1,001 files to change: %s", msg)
	}
	s.ok("replace_in_files", map[string]any{"oldString": "a", "newString": "b", "fileGlob": "f0*.txt", "path": "many", "dryRun": false})
	if disk(t, root, "big/f00.txt") != big || disk(t, root, "many/f1000.txt") != "a\n" || disk(t, root, "many/f0999.txt") != "b\n" {
		t.Fatal("a refused replacement wrote, or the narrowed one did not")
	}
}

// A plugin's request larger than the host takes at once (a write of 80
// MiB) is TOO_LARGE, not an INTERNAL "could not send": the plugin could
// not know the bound, and the sentence tells it to ask for less.
func TestPluginRequestPastFrameIsTooLarge(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "old\n"})
	home := t.TempDir()
	installForTest(t, home, "plugins/testplugins/writer", []string{"fs.write"})
	s := startHome(t, home, root, "--mode", "trusted")
	msg := s.fail("test_write", map[string]any{"path": "big.txt", "content": "x", "mib": 80}, "TOO_LARGE")
	if !strings.Contains(msg, "juju_fs_apply is 80 MiB") || !strings.Contains(msg, "Ask for less") {
		t.Fatalf("a request of 80 MiB: %s", msg)
	}
	if _, err := os.Lstat(filepath.Join(root, "big.txt")); !os.IsNotExist(err) {
		t.Fatalf("big.txt was written: %v", err)
	}
	s.ok("test_write", map[string]any{"path": "a.txt", "content": "new\n"})
}

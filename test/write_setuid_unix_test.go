//go:build unix

package test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A write replaces a file with a new one given the old one's mode, so an
// edit of a setuid or setgid program left a program running as its owner
// or group with content the AI chose. A change of content now drops
// setuid, and setgid where the group may execute, as the kernel does at
// any write by a process without CAP_FSETID; a move keeps the mode, a
// git mode line (which names the whole mode) sets the file's mode without
// them, and a rollback gives the owner's file back with its own mode.
func TestContentChangeDropsSetuidAndSetgid(t *testing.T) {
	root := workspace(t, map[string]string{
		"w": "w\n", "e": "e\n", "p": "p\n", "r": "r\n", "k": "k\n", "m": "m\n", "x": "x\n",
	})
	modes := map[string]fs.FileMode{
		"w": 0o755 | fs.ModeSetuid, // write_file
		"e": 0o755 | fs.ModeSetgid, // edit_file
		"p": 0o755 | fs.ModeSetuid | fs.ModeSetgid,
		"r": 0o755 | fs.ModeSetgid, // replace_in_files
		"k": 0o644 | fs.ModeSetgid, // group may not execute: the kernel keeps it
		"m": 0o755 | fs.ModeSetuid, // moved, not written
		"x": 0o644 | fs.ModeSetuid, // made executable by a git mode line
	}
	for name, m := range modes {
		if err := os.Chmod(filepath.Join(root, name), m); err != nil {
			t.Fatal(err)
		}
		if got := modeOf(t, root, name); got != m {
			t.Skipf("the file system does not keep %v on %s (got %v)", m, name, got)
		}
	}
	s := start(t, root)
	var ids []string
	ids = append(ids,
		changeID(t, s, "write_file", map[string]any{"path": "w", "content": "W\n"}),
		changeID(t, s, "edit_file", map[string]any{"path": "e", "oldString": "e", "newString": "E"}),
		changeID(t, s, "apply_patch", map[string]any{"patch": "--- a/p\n+++ b/p\n@@ -1 +1 @@\n-p\n+P\n"}),
		changeID(t, s, "replace_in_files", map[string]any{"oldString": "r\n", "newString": "R\n", "fileGlob": "r", "dryRun": false, "expectedCount": 1}),
		changeID(t, s, "edit_file", map[string]any{"path": "k", "oldString": "k", "newString": "K"}),
		changeID(t, s, "move_path", map[string]any{"path": "m", "destination": "moved"}),
		changeID(t, s, "apply_patch", map[string]any{"patch": "diff --git a/x b/x\nold mode 100644\nnew mode 100755\n"}),
	)
	want := map[string]fs.FileMode{
		"w": 0o755, "e": 0o755, "p": 0o755, "r": 0o755,
		"k":     0o644 | fs.ModeSetgid,
		"moved": 0o755 | fs.ModeSetuid,
		"x":     0o755,
	}
	for name, m := range want {
		if got := modeOf(t, root, name); got != m {
			t.Errorf("%s after the change: mode %v, want %v", name, got, m)
		}
	}
	for i := len(ids) - 1; i >= 0; i-- {
		s.ok("rollback_changes", map[string]any{"changeId": ids[i]})
	}
	for name, m := range modes {
		if got := modeOf(t, root, name); got != m {
			t.Errorf("%s after the rollback: mode %v, want %v, as the owner left it", name, got, m)
		}
		if got := disk(t, root, name); got != name+"\n" {
			t.Errorf("%s after the rollback holds %q", name, got)
		}
	}
}

func modeOf(t *testing.T, root, name string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

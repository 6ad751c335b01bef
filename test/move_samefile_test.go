//go:build unix

package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMoveOntoItsOtherName holds that move_path refuses to move a file
// onto another name of the same file, and changes nothing. The journal
// keys paths by name, so it took the destination for a file the move
// leaves as it is and deleted the source: where both names reach one
// entry (a file system that ignores case, as on macOS and Windows,
// simulated here by a folder mounted twice) it deleted the file and
// answered "Moved". Hard links, the Linux form of two names for a file,
// are refused alike; a symlinked folder on the way was already the same
// path.
func TestMoveOntoItsOtherName(t *testing.T) {
	refused := func(t *testing.T, s *session, from, to string) {
		t.Helper()
		for _, overwrite := range []bool{true, false} {
			msg := s.fail("move_path", map[string]any{"path": from, "destination": to, "overwrite": overwrite}, "INVALID_ARGUMENT")
			if !strings.Contains(msg, "two names of one file") && !strings.Contains(msg, "same path") {
				t.Fatalf("move %s onto %s: %s", from, to, msg)
			}
		}
		if got := s.ok("change_history", map[string]any{}); strings.Contains(got, "move_path") {
			t.Fatalf("a refused move was recorded:\n%s", got)
		}
	}
	t.Run("hard link", func(t *testing.T) {
		root := workspace(t, map[string]string{"a.txt": "hello\n"})
		if err := os.Link(filepath.Join(root, "a.txt"), filepath.Join(root, "A.txt")); err != nil {
			t.Fatal(err)
		}
		s := start(t, root)
		refused(t, s, "a.txt", "A.txt")
		if disk(t, root, "a.txt") != "hello\n" || disk(t, root, "A.txt") != "hello\n" {
			t.Fatal("a refused move changed a file")
		}
	})
	t.Run("folder mounted twice", func(t *testing.T) {
		root := workspace(t, map[string]string{"real/f.txt": "in real\n", "alias/.keep": ""})
		home := t.TempDir()
		if err := os.Symlink(sharedCache, filepath.Join(home, "cache")); err != nil {
			t.Fatal(err)
		}
		program, args := inMountNamespace(t, "mount --bind "+filepath.Join(root, "real")+" "+filepath.Join(root, "alias"), root)
		s := startCommand(t, append(os.Environ(), "JUJU_HOME="+home), program, args, home, root)
		refused(t, s, "alias/f.txt", "real/f.txt")
		refused(t, s, "real/f.txt", "alias/f.txt")
		if disk(t, root, "real/f.txt") != "in real\n" {
			t.Fatal("a refused move changed the file")
		}
	})
	t.Run("symlinked folder", func(t *testing.T) {
		root := workspace(t, map[string]string{"real/f.txt": "in real\n", "lnk": "->real"})
		s := start(t, root)
		refused(t, s, "lnk/f.txt", "real/f.txt")
		refused(t, s, "real/f.txt", "lnk/f.txt")
		if disk(t, root, "real/f.txt") != "in real\n" {
			t.Fatal("a refused move changed the file")
		}
	})
}

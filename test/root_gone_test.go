//go:build unix

package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A root deleted while juju runs, and made again at its path (a clone
// deleted and cloned anew), is a folder juju never opened: every name
// resolves below the folder it opened, now empty and gone. Each call,
// reading, writing, searching or running, is then NOT_FOUND naming the
// root and saying to restart juju; none reports the new folder's files
// missing, none writes into either folder, and no command runs.
func TestDeletedRootSaysRestart(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "old\n"})
	home := gateHome(t, time.Second)
	s := startGate(t, home, root, "trusted", "root-gone", nil)
	if got := s.ok("read_file", map[string]any{"path": "a.txt"}); !strings.Contains(got, "old") {
		t.Fatalf("read_file before: %q", got)
	}
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	newFolderAt(t, root)
	failsNamingTheRoot(t, s, root, "was deleted while juju ran")
	for _, name := range []string{"b.txt", "ran.txt"} {
		if _, err := os.Stat(filepath.Join(root, name)); !os.IsNotExist(err) {
			t.Errorf("%s was made in the new folder: %v", name, err)
		}
	}
	// A juju started now works in the new folder.
	s.c.Close()
	s = startGate(t, home, root, "trusted", "root-gone", nil)
	if got := s.ok("read_file", map[string]any{"path": "a.txt"}); !strings.Contains(got, "new") {
		t.Errorf("read_file after a restart: %q", got)
	}
}

// A root moved away while juju runs, with another folder made at its path
// (the clone kept aside and cloned anew), split juju in two: file tools
// read and wrote the folder juju opened, now at the other path, while
// commands ran in the new folder at the root's path, so an edit the model
// then tested was not in the folder the test ran in. Each call is now
// NOT_FOUND naming the root and saying to move it back or restart
// juju, and neither folder is written.
func TestMovedRootSaysRestart(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "old\n"})
	away := root + ".old"
	t.Cleanup(func() { os.RemoveAll(away) })
	home := gateHome(t, time.Second)
	s := startGate(t, home, root, "trusted", "root-moved", nil)
	if got := s.ok("read_file", map[string]any{"path": "a.txt"}); !strings.Contains(got, "old") {
		t.Fatalf("read_file before: %q", got)
	}
	if err := os.Rename(root, away); err != nil {
		t.Fatal(err)
	}
	newFolderAt(t, root)
	failsNamingTheRoot(t, s, root, "was moved away from its path while juju ran")
	for _, p := range []string{filepath.Join(away, "b.txt"), filepath.Join(root, "b.txt"), filepath.Join(root, "ran.txt")} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s was made: %v", p, err)
		}
	}
	// Moved back, the folder is served again.
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(away, root); err != nil {
		t.Fatal(err)
	}
	if got := s.ok("read_file", map[string]any{"path": "a.txt"}); !strings.Contains(got, "old") {
		t.Errorf("read_file once moved back: %q", got)
	}
}

// newFolderAt makes a folder at root's path again, with an a.txt of "new".
func newFolderAt(t *testing.T, root string) {
	t.Helper()
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// failsNamingTheRoot checks that reading, listing, searching, writing
// and running are each NOT_FOUND naming root and what became of it, and
// saying to restart juju.
func failsNamingTheRoot(t *testing.T, s *gateSession, root, what string) {
	t.Helper()
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read_file", map[string]any{"path": "a.txt"}},
		{"list_directory", map[string]any{"path": "."}},
		{"search_code", map[string]any{"pattern": "new"}},
		{"write_file", map[string]any{"path": "b.txt", "content": "x\n"}},
		{"run_command", map[string]any{"command": "touch ran.txt"}},
	} {
		msg := s.fail(c.tool, c.args, "NOT_FOUND")
		if !strings.Contains(msg, "the workspace root \""+root+"\" "+what) || !strings.Contains(msg, "restart juju") {
			t.Errorf("%s: %s", c.tool, msg)
		}
	}
}

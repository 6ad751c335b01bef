package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A rollback and an applied plan write paths the journal recorded. A
// folder on the way swapped for a symbolic link since — with the file
// tools alone: move the folder away, move a link in its place — must not
// take the write into .git or a secret folder through the link (os.Root
// follows links that stay inside the root): the replay is refused and
// nothing is written there.
func TestReplayDoesNotFollowSwappedFolders(t *testing.T) {
	for _, c := range []struct {
		name, link, target, code string
		force                    bool
	}{
		{"a hook", ".git/hooks", "pre-commit", "CONFLICT", false},
		{".git itself, forced", ".git", "config", "CONFLICT", true},
		{"a secret folder, forced", ".ssh", "config", "SECRET_DENIED", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := workspace(t, map[string]string{".git/hooks/.keep": "", ".git/config": "[core]\n", ".ssh/config": "Host *\n  IdentityFile SECRET_LINE\n"})
			if err := os.Symlink(c.link, filepath.Join(root, "lnk")); err != nil {
				t.Fatal(err)
			}
			s := start(t, root, "--mode", "trusted")
			s.ok("write_file", map[string]any{"path": "dir/" + c.target, "content": "#!/bin/sh\ntouch PWNED\n"})
			del := structured(t, s.call("delete_path", map[string]any{"path": "dir/" + c.target}))["changeId"].(string)
			s.ok("move_path", map[string]any{"path": "dir", "destination": "old"})
			s.ok("move_path", map[string]any{"path": "lnk", "destination": "dir"})
			before, _ := os.ReadFile(filepath.Join(root, c.link, c.target))
			msg := s.fail("rollback_changes", map[string]any{"changeId": del, "force": c.force}, c.code)
			if c.code == "CONFLICT" && !strings.Contains(msg, "symbolic link") || strings.Contains(msg, "SECRET_LINE") {
				t.Errorf("rollback: %s", msg)
			}
			after, _ := os.ReadFile(filepath.Join(root, c.link, c.target))
			if string(after) != string(before) {
				t.Fatalf("the rollback wrote %s/%s through the swapped folder: %q", c.link, c.target, after)
			}
			if n, _ := filepath.Glob(filepath.Join(root, c.link, ".juju-*")); len(n) > 0 {
				t.Errorf("temporary files left in %s: %v", c.link, n)
			}
		})
	}

	t.Run("a plan", func(t *testing.T) {
		root := workspace(t, map[string]string{"dir/a.txt": "a\n", ".ssh/config": "x\n"})
		os.Symlink(".ssh", filepath.Join(root, "lnk"))
		s := start(t, root, "--mode", "trusted")
		plan := structured(t, s.call("preview_changes", map[string]any{"operations": []any{
			map[string]any{"op": "write", "path": "dir/authorized_keys", "content": "ssh-ed25519 AAAA attacker\n"}}}))
		s.ok("move_path", map[string]any{"path": "dir", "destination": "old"})
		s.ok("move_path", map[string]any{"path": "lnk", "destination": "dir"})
		s.fail("apply_changes", map[string]any{"planId": plan["planId"]}, "SECRET_DENIED")
		if _, err := os.Stat(filepath.Join(root, ".ssh/authorized_keys")); err == nil {
			t.Fatal("the plan wrote .ssh/authorized_keys through the swapped folder")
		}
	})

	t.Run("a link out of the root", func(t *testing.T) {
		root := workspace(t, map[string]string{"dir/b.txt": "b\n"})
		outside := t.TempDir()
		s := start(t, root, "--mode", "trusted")
		del := structured(t, s.call("delete_path", map[string]any{"path": "dir/b.txt"}))["changeId"].(string)
		s.ok("move_path", map[string]any{"path": "dir", "destination": "old"})
		os.Symlink(outside, filepath.Join(root, "dir"))
		s.fail("rollback_changes", map[string]any{"changeId": del, "force": true}, "PATH_DENIED")
		if _, err := os.Stat(filepath.Join(outside, "b.txt")); err == nil {
			t.Fatal("the rollback wrote outside the root")
		}
	})
}

// A folder replaced by a file (delete_path, then write_file) is put back
// by one rollback of both changes, and a plan that moves a folder where a
// file was deleted is previewed, applied and rolled back. The rollback was
// CONFLICT for good ("c is no longer a folder"), though it makes c a
// folder again itself, and the plan's preview INTERNAL.
func TestFolderAndFileTradePlaces(t *testing.T) {
	root := workspace(t, map[string]string{"c/z": "z\n", "f": "file f\n", "X/g": "g\n"})
	s := start(t, root, "--mode", "trusted")
	first := changeID(t, s, "delete_path", map[string]any{"path": "c", "recursive": true})
	s.ok("write_file", map[string]any{"path": "c", "content": "now a file\n"})
	s.ok("rollback_changes", map[string]any{"changeId": first, "scope": "since"})
	if got := disk(t, root, "c/z"); got != "z\n" {
		t.Fatalf("c/z after the rollback: %q", got)
	}

	plan := structured(t, s.call("preview_changes", map[string]any{"operations": []any{
		map[string]any{"op": "delete", "path": "f"},
		map[string]any{"op": "move", "path": "X", "destination": "f"}}}))
	if plan["planId"] == nil {
		t.Fatalf("preview: %v", plan)
	}
	moved := structured(t, s.call("apply_changes", map[string]any{"planId": plan["planId"]}))
	if got := disk(t, root, "f/g"); got != "g\n" {
		t.Fatalf("f/g after the plan: %q (%v)", got, moved)
	}
	s.ok("rollback_changes", map[string]any{"changeId": moved["changeId"]})
	if disk(t, root, "f") != "file f\n" || disk(t, root, "X/g") != "g\n" {
		t.Fatal("the rollback of the plan did not put f and X back")
	}
}

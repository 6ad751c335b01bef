package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A bare clone kept in the workspace (mirror.git, or a root that is one)
// has its hooks beside its files, with no .git on the way, and git init
// makes their samples executable: move_path of hooks/post-update.sample
// onto hooks/post-update and a write_file into it, two edit-tier calls,
// planted a program that ran as the owner, unsandboxed, at the owner's
// next push to it. A root given as a repository's .git took the same
// move onto hooks/pre-commit, run at the owner's next commit. A bare
// repository's hooks, and the repository folder whole, are now refused as
// a .git's are.
func TestBareRepositoryHooksAreNotWritable(t *testing.T) {
	ws := workspace(t, map[string]string{"README.md": "hello\n"})
	bare := filepath.Join(t.TempDir(), "bare.git")
	gitIn(t, ws, "init", "-q", "--bare", "mirror.git")
	gitIn(t, filepath.Dir(bare), "init", "-q", "--bare", bare)
	dotgit := filepath.Join(t.TempDir(), "repo")
	gitIn(t, filepath.Dir(dotgit), "init", "-q", dotgit)
	dotgit = filepath.Join(dotgit, ".git")
	s := start(t, ws, "--root", bare, "--root", dotgit)
	hook := "#!/bin/sh\ntouch planted\n"
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"move_path", map[string]any{"path": "mirror.git/hooks/post-update.sample", "destination": "mirror.git/hooks/post-update"}},
		{"write_file", map[string]any{"path": "mirror.git/hooks/post-update", "content": hook}},
		{"write_file", map[string]any{"path": "mirror.git/HOOKS/pre-receive", "content": hook}},
		{"apply_patch", map[string]any{"patch": "--- /dev/null\n+++ b/mirror.git/hooks/pre-receive\n@@ -0,0 +1 @@\n+touch planted\n"}},
		{"move_path", map[string]any{"path": "README.md", "destination": "mirror.git/hooks/update"}},
		{"move_path", map[string]any{"path": filepath.Join(bare, "hooks/update.sample"), "destination": filepath.Join(bare, "hooks/update")}},
		{"write_file", map[string]any{"path": filepath.Join(bare, "hooks/post-receive"), "content": hook}},
		{"move_path", map[string]any{"path": filepath.Join(dotgit, "hooks/pre-commit.sample"), "destination": filepath.Join(dotgit, "hooks/pre-commit")}},
		{"move_path", map[string]any{"path": "mirror.git", "destination": "old.git"}},
		{"delete_path", map[string]any{"path": "mirror.git"}},
	} {
		s.fail(c.tool, c.args, "PATH_DENIED")
	}
	for _, p := range []string{"mirror.git/hooks/post-update", "mirror.git/hooks/pre-receive", "mirror.git/hooks/update",
		filepath.Join(bare, "hooks/update"), filepath.Join(bare, "hooks/post-receive"), filepath.Join(dotgit, "hooks/pre-commit")} {
		if !filepath.IsAbs(p) {
			p = filepath.Join(ws, p)
		}
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was made", p)
		}
	}
	// The rest of the repository is a file like others.
	s.ok("write_file", map[string]any{"path": "mirror.git/description", "content": "the mirror\n"})
}

// A repository's folder not named .git — the work tree's own made with
// git init --separate-git-dir inside it, a bare clone named backup —
// had its config written by write_file (a core.fsmonitor set there ran
// as the owner's program at the owner's next git status) and read by
// read_file. Its config is a secret as a .git's is, refused by every tool
// that writes or reads, and the rest of the folder stays writable.
func TestRepositoryConfigIsNotWritable(t *testing.T) {
	ws := workspace(t, map[string]string{"README.md": "hello\n"})
	gitIn(t, ws, "init", "-q", "--separate-git-dir="+filepath.Join(ws, "gitstore"))
	gitIn(t, ws, "init", "-q", "--bare", "backup")
	before := map[string][]byte{}
	for _, p := range []string{"gitstore/config", "backup/config"} {
		b, err := os.ReadFile(filepath.Join(ws, p))
		if err != nil {
			t.Fatal(err)
		}
		before[p] = b
	}
	s := start(t, ws, "--mode", "trusted")
	monitor := "[core]\n\tfsmonitor = \"touch planted; false\"\n"
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"write_file", map[string]any{"path": "gitstore/config", "content": monitor}},
		{"edit_file", map[string]any{"path": "gitstore/config", "oldString": "[core]", "newString": monitor}},
		{"apply_patch", map[string]any{"patch": "--- a/backup/config\n+++ b/backup/config\n@@ -1 +1,2 @@\n [core]\n+\tfsmonitor = \"touch planted; false\"\n"}},
		{"write_file", map[string]any{"path": "backup/config.worktree", "content": monitor}},
		{"move_path", map[string]any{"path": "README.md", "destination": "backup/config", "overwrite": true}},
		{"delete_path", map[string]any{"path": "backup/config"}},
		{"preview_changes", map[string]any{"operations": []any{map[string]any{"op": "write", "path": "gitstore/config", "content": monitor}}}},
	} {
		s.fail(c.tool, c.args, "SECRET_DENIED")
	}
	for p, b := range before {
		if now, err := os.ReadFile(filepath.Join(ws, p)); err != nil || string(now) != string(b) {
			t.Errorf("%s changed: %v\n%s", p, err, now)
		}
	}
	if _, err := os.Lstat(filepath.Join(ws, "backup/config.worktree")); err == nil {
		t.Error("backup/config.worktree was made")
	}
	// Nor is it read: a remote's URL there holds its password.
	for _, p := range []string{"gitstore/config", "backup/config"} {
		s.fail("read_file", map[string]any{"path": p}, "SECRET_DENIED")
	}
	if out := s.ok("list_directory", map[string]any{"path": "backup"}); strings.Contains(out, "config") || !strings.Contains(out, "HEAD") {
		t.Errorf("list_directory backup:\n%s", out)
	}
	s.ok("write_file", map[string]any{"path": "gitstore/description", "content": "the work tree's\n"})
}

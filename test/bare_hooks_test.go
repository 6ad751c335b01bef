package test

import (
	"os"
	"path/filepath"
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

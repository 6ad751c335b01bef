package sandboxtest

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Git runs git in dir on the host, with no global or system configuration,
// and returns its output; it fails t when git fails.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// GitWorkspace makes two folders to use as roots: main, a repository with
// one commit and a pre-commit hook that exits 0, and wt, a linked worktree
// of it on branch side (its .git is a file; main/.git/worktrees/wt holds
// its commondir and gitdir). It skips t without git.
func GitWorkspace(t testing.TB) (main, wt string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on PATH")
	}
	main, wt = filepath.Join(t.TempDir(), "main"), filepath.Join(t.TempDir(), "wt")
	if err := os.Mkdir(main, 0o755); err != nil {
		t.Fatal(err)
	}
	Git(t, main, "init", "-q", "-b", "main")
	Git(t, main, "config", "user.name", "Owner")
	Git(t, main, "config", "user.email", "owner@example.com")
	write(t, filepath.Join(main, "a.txt"), "a\n", 0o644)
	write(t, filepath.Join(main, ".git", "hooks", "pre-commit"), "#!/bin/sh\nexit 0\n", 0o755)
	Git(t, main, "add", "a.txt")
	Git(t, main, "commit", "-q", "-m", "first")
	Git(t, main, "worktree", "add", "-q", "-b", "side", wt)
	return main, wt
}

func write(t testing.TB, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// GitAttack is a command that tries to replace a root's .git, or to rewrite
// what configures or redirects git, run in the root named by Dir ("main"
// or "wt" of GitWorkspace).
type GitAttack struct{ Name, Dir, Script string }

// GitAttacks must each fail in the sandbox. The last empties .git as far
// as it can: run in one workspace, they run in this order.
var GitAttacks = []GitAttack{
	{"rename .git", "main", `mv .git .git-old`},
	{"replace .git by a copy", "main", `mkdir .git2 && cp -a .git/. .git2/ && printf '#!/bin/sh\ntouch pwned\n' > .git2/hooks/pre-commit && mv .git .git-old && mv .git2 .git`},
	{"move .git aside and rebuild it", "main", `mv .git .git-old && mkdir .git && cp -a .git-old/. .git/ && echo evil > .git/hooks/pre-commit`},
	{"write a hook", "main", `printf '#!/bin/sh\ntouch pwned\n' > .git/hooks/pre-commit`},
	{"add a hook", "main", `printf '#!/bin/sh\ntouch pwned\n' > .git/hooks/post-commit`},
	{"write the config", "main", `printf '[core]\n\thooksPath = /tmp/evil\n' >> .git/config`},
	{"write info/attributes", "main", `echo '* filter=evil' > .git/info/attributes`},
	{"write objects/info/alternates", "main", `echo /tmp/evil-objects > .git/objects/info/alternates`},
	{"move objects away", "main", `mv .git/objects .git/objects-old`},
	{"write a worktree's commondir", "main", `echo /tmp/evil > .git/worktrees/wt/commondir`},
	{"write a worktree's gitdir", "main", `echo /tmp/evil/.git > .git/worktrees/wt/gitdir`},
	{"rename worktrees", "main", `mv .git/worktrees .git/worktrees-old`},
	{"rewrite the .git file", "wt", `echo 'gitdir: /tmp/evil' > .git`},
	{"replace the .git file", "wt", `rm -f .git && echo 'gitdir: /tmp/evil' > .git`},
	{"remove .git", "main", `rm -rf .git`},
}

// GitSnapshot is what of root's git metadata a sandboxed command must not
// change: the .git entry itself (its type and inode, so that a copy
// swapped in shows; a .git file's content), and the bytes and modes of
// the configuration, hooks, info, objects/info and worktrees (whose
// HEAD, index and logs git itself rewrites).
func GitSnapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	dotgit := filepath.Join(root, ".git")
	fi, err := os.Lstat(dotgit)
	if err != nil {
		t.Fatalf(".git: %v", err)
	}
	snap[".git"] = fi.Mode().String() + " inode " + inode(fi)
	if !fi.IsDir() {
		b, _ := os.ReadFile(dotgit)
		snap[".git"] += " " + string(b)
		return snap
	}
	for _, name := range []string{"config", "commondir", "hooks", "info", "objects/info", "worktrees"} {
		filepath.WalkDir(filepath.Join(dotgit, name), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(dotgit, p)
			info, err := d.Info()
			if err != nil {
				return nil
			}
			v := info.Mode().String()
			if base := filepath.Base(rel); d.Type().IsRegular() && base != "index" && !strings.HasSuffix(base, "HEAD") && !strings.Contains(rel, "/logs/") {
				b, _ := os.ReadFile(p)
				v += " " + string(b)
			}
			snap[rel] = v
			return nil
		})
	}
	return snap
}

// SameGit fails t when GitSnapshot(root) is not before.
func SameGit(t testing.TB, root string, before map[string]string) {
	t.Helper()
	after := GitSnapshot(t, root)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s: .git/%s changed: %q → %q", filepath.Base(root), strings.TrimPrefix(k, ".git"), v, after[k])
		}
	}
	for k, v := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("%s: .git/%s appeared: %q", filepath.Base(root), k, v)
		}
	}
}

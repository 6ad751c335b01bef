package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A path given to git_commit is the file of that name, never a pattern:
// git reads a pathspec as a wildcard, so ".e*", "[.]env" or "*" would have
// staged .env and the keys beside it, which the policy checked only as
// names that do not exist.
func TestGitCommitPathsAreLiteral(t *testing.T) {
	secrets := []string{".env", "sub/.ssh/id_rsa", "sub/server.pem"}
	for _, paths := range [][]any{{".e*"}, {"[.]env"}, {"?env"}, {"*"}, {"sub/*"}, {"sub/.ss?/*"}, {"a.txt", "*.pem"}} {
		root := gitRepo(t)
		write(t, root, "a.txt", "a\n")
		write(t, root, "sub/.ssh/id_rsa", "PRIVATE KEY\n")
		write(t, root, "sub/server.pem", "CERT KEY\n")
		before := strings.TrimSpace(gitOut(t, root, "rev-parse", "HEAD"))
		s := startExec(t, root)
		res := s.call("git_commit", map[string]any{"message": "m", "paths": paths})
		tree := gitOut(t, root, "ls-tree", "-r", "--name-only", "HEAD")
		staged := gitOut(t, root, "diff", "--cached", "--name-only")
		for _, secret := range secrets {
			if strings.Contains(tree, secret) || strings.Contains(staged, secret) {
				t.Errorf("paths %v: %s was committed or staged (%s)", paths, secret, text(res))
			}
		}
		// A name that is no file is refused or commits nothing new but a.txt.
		after := strings.TrimSpace(gitOut(t, root, "rev-parse", "HEAD"))
		if !res.IsError && after != before {
			files := strings.Fields(gitOut(t, root, "show", "--name-only", "--format=", "HEAD"))
			for _, f := range files {
				if f != "a.txt" {
					t.Errorf("paths %v committed %s", paths, f)
				}
			}
		}
	}
}

// The owner's secret and deny globs hold for git reads as for read_file:
// a glob with a slash is a path from the root, which may lie below the
// repository's top, and braces are expanded as the policy expands them.
func TestGitReadsHideOwnerGlobsFromASubfolderRoot(t *testing.T) {
	top := gitRepo(t)
	write(t, top, "app/config/prod.yaml", "db_password: OLD\n")
	write(t, top, "app/keys/k.txt", "OLDKEY\n")
	write(t, top, "app/prod.vault", "OLDVAULT\n")
	write(t, top, "app/main.txt", "visible\n")
	gitOut(t, top, "-c", "user.name=x", "-c", "user.email=x@x", "add", "app")
	gitOut(t, top, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "--no-verify", "-m", "app")
	write(t, top, "app/config/prod.yaml", "db_password: NEWPW-S3CRET\n")
	write(t, top, "app/keys/k.txt", "NEWKEY-S3CRET\n")
	write(t, top, "app/prod.vault", "VAULT-S3CRET\n")
	write(t, top, "app/main.txt", "visible and changed\n")

	home := t.TempDir()
	writeConfig(t, home, "[policy]\ndeny = [\"config/prod.yaml\"]\nsecrets = [\"keys/*.txt\", \"*.{vault,sealed}\"]\n")
	s := startHome(t, home, filepath.Join(top, "app"), "--mode", "trusted", "--sandbox", "off")
	s.fail("read_file", map[string]any{"path": "config/prod.yaml"}, "PATH_DENIED")
	s.fail("read_file", map[string]any{"path": "keys/k.txt"}, "SECRET_DENIED")
	s.fail("read_file", map[string]any{"path": "prod.vault"}, "SECRET_DENIED")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"git_status", map[string]any{}},
		{"git_diff", map[string]any{}},
		{"git_diff", map[string]any{"revision": "HEAD"}},
		{"git_log", map[string]any{}},
	} {
		out := text(s.call(c.tool, c.args))
		for _, leak := range []string{"prod.yaml", "k.txt", "prod.vault", "S3CRET", "OLDKEY", "OLDVAULT", "db_password"} {
			if strings.Contains(out, leak) {
				t.Errorf("%s %v shows %q:\n%s", c.tool, c.args, leak, out)
			}
		}
		if c.tool != "git_log" && !strings.Contains(out, "main.txt") {
			t.Errorf("%s %v does not show the visible change, so it proves nothing:\n%s", c.tool, c.args, out)
		}
	}
}

// A .git file in the workspace (unpacked from an archive, say) may name
// any repository on the disk; the git tools read one outside the roots
// only when it names the work tree back, as a linked worktree's does.
func TestGitIgnoresAForeignGitFile(t *testing.T) {
	outside := gitRepo(t)
	write(t, outside, "private_notes.txt", "OUTSIDE-PRIVATE-CONTENT\n")
	gitOut(t, outside, "-c", "user.name=x", "-c", "user.email=x@x", "add", "private_notes.txt")
	gitOut(t, outside, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "--no-verify", "-m", "outside private commit")
	root := workspace(t, map[string]string{".git": "gitdir: " + filepath.Join(outside, ".git") + "\n", "a.txt": "a\n"})
	s := startExec(t, root)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"git_log", map[string]any{}},
		{"git_diff", map[string]any{"revision": "HEAD"}},
		{"git_status", map[string]any{}},
	} {
		out := text(s.call(c.tool, c.args))
		if strings.Contains(out, "OUTSIDE-PRIVATE") || strings.Contains(out, "outside private commit") || strings.Contains(out, "private_notes") {
			t.Errorf("%s read the repository a workspace file named:\n%s", c.tool, out)
		}
	}

	// A linked worktree outside the roots names its work tree back, and is
	// used.
	wt := filepath.Join(t.TempDir(), "wt")
	gitOut(t, outside, "worktree", "add", "-q", wt)
	w := startExec(t, wt)
	if out := w.ok("git_log", map[string]any{}); !strings.Contains(out, "outside private commit") {
		t.Errorf("a linked worktree's log: %s", out)
	}
}

// With the home folder inside a root, ~/.gitconfig is a file the write
// tools and commands can change: its drivers are not the owner's own, and
// a read must not run them.
func TestGitHomeConfigInsideARootIsNotTrusted(t *testing.T) {
	root := gitRepo(t)
	ran := filepath.Join(t.TempDir(), "ran")
	write(t, root, ".gitattributes", "*.txt filter=g diff=d\n")
	write(t, root, "tools/f.sh", "echo CODE-RAN > "+ran+"\ncat\n")
	write(t, root, ".gitconfig", "[filter \"g\"]\n\tclean = sh tools/f.sh\n\tprocess = sh tools/f.sh\n[diff \"d\"]\n\ttextconv = sh tools/f.sh\n")
	write(t, root, "t.txt", "tracked\n")
	gitOut(t, root, "-c", "user.name=x", "-c", "user.email=x@x", "add", ".gitattributes", "tools/f.sh", "t.txt")
	gitOut(t, root, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "--no-verify", "-m", "attrs")
	write(t, root, "t.txt", "tracked and changed\n")
	s := startHomeEnv(t, t.TempDir(), root, root, "--mode", "trusted", "--sandbox", "off")
	for _, tool := range []string{"git_status", "git_diff"} {
		s.call(tool, map[string]any{})
		if b, err := os.ReadFile(ran); err == nil {
			t.Fatalf("%s ran a driver of ~/.gitconfig inside the root: %s", tool, b)
		}
	}
}

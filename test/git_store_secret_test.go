package test

import (
	"crypto/sha1"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git keeps committed and staged files' content below .git, where the
// secret rules on names never see it: a rebase stopped on a conflict
// writes the commit's diff to .git/rebase-merge/patch, a commit made with
// -v (commit.verbose) leaves the staged diff in .git/COMMIT_EDITMSG, and
// a loose object's name is the SHA-1 of a staged file's content, an
// offline oracle for a short secret. read_file served the first two,
// .env's line included, and list_directory and glob_files the third;
// each is a secret now, and what a rebase needs besides stays readable.
func TestGitStoresOfContentAreSecrets(t *testing.T) {
	root := workspace(t, map[string]string{"README.md": "hello\n"})
	git := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"), env...)
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	git(nil, "init", "-q", "-b", "main")
	git(nil, "config", "user.name", "O")
	git(nil, "config", "user.email", "o@e")
	git(nil, "add", ".")
	git(nil, "commit", "-q", "-m", "first")
	// A commit that adds .env, made with -v through an editor.
	git(nil, "checkout", "-q", "-b", "feature")
	write(t, root, ".env", "API_KEY=SECRET-IN-HISTORY\n")
	write(t, root, "README.md", "feature\n")
	git(nil, "add", "-f", ".")
	git([]string{`GIT_EDITOR=sh -c 'echo feature >"$1.t" && cat "$1" >>"$1.t" && mv "$1.t" "$1"' editor`}, "commit", "-q", "-v")
	// main changes README.md too: rebasing feature onto it stops.
	git(nil, "checkout", "-q", "main")
	write(t, root, "README.md", "main\n")
	git(nil, "commit", "-q", "-am", "main")
	git(nil, "checkout", "-q", "feature")
	git(nil, "rebase", "main")
	if _, err := os.Stat(filepath.Join(root, ".git/rebase-merge/patch")); err != nil {
		t.Fatalf("the rebase did not stop with a patch: %v", err)
	}
	// A staged secret's blob: its object's name is the SHA-1 of its content.
	pin := "PIN=4821\n"
	write(t, root, ".env.staged", pin)
	git(nil, "add", "-f", ".env.staged")
	sum := fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(pin), pin))))
	object := ".git/objects/" + sum[:2] + "/" + sum[2:]
	if _, err := os.Stat(filepath.Join(root, object)); err != nil {
		t.Fatalf("no loose object for the staged secret: %v", err)
	}
	s := start(t, root)

	for _, p := range []string{".git/rebase-merge/patch", ".git/COMMIT_EDITMSG", object} {
		s.fail("read_file", map[string]any{"path": p}, "SECRET_DENIED")
		s.fail("file_info", map[string]any{"path": p}, "SECRET_DENIED")
	}
	s.fail("list_directory", map[string]any{"path": ".git/objects"}, "SECRET_DENIED")
	if out := text(s.call("read_files", map[string]any{"paths": []any{".git/rebase-merge/patch", ".git/COMMIT_EDITMSG"}})); strings.Contains(out, "SECRET-IN-HISTORY") {
		t.Errorf("read_files shows the secret:\n%s", out)
	}
	for _, out := range []string{
		text(s.call("list_directory", map[string]any{"path": ".git"})),
		text(s.call("list_directory", map[string]any{"path": ".git/rebase-merge"})),
		text(s.call("list_directory", map[string]any{"path": ".git/objects/" + sum[:2]})),
		text(s.call("glob_files", map[string]any{"pattern": ".git/**", "includeIgnored": true, "limit": 1000})),
	} {
		for _, leak := range []string{sum[2:], "COMMIT_EDITMSG", "rebase-merge/patch", "\npatch  ("} {
			if strings.Contains(out, leak) {
				t.Errorf("%q listed:\n%s", leak, out)
			}
		}
	}
	// What resolving the rebase needs stays readable.
	if out := s.ok("read_file", map[string]any{"path": ".git/rebase-merge/done"}); !strings.Contains(out, "feature") {
		t.Errorf(".git/rebase-merge/done: %s", out)
	}
	if out := s.ok("git_status", map[string]any{}); !strings.Contains(out, "README.md") {
		t.Errorf("git_status: %s", out)
	}
}

package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/sandboxtest"
)

// A change staged whole with git rm or git mv is in neither the work tree
// (the old name) nor, for a deletion, the index: git add fails on that
// name, so git_commit failed on it, with all (which staged every name
// git_status shows) and with the path given. It is committed as the git
// CLI commits it, from the index; a rename's new name, changed again
// since, is staged with that change.
func TestGitCommitStagedDeletionsAndRenames(t *testing.T) {
	root := gitRepo(t)
	gitOut(t, root, "rm", "-q", "README.md")
	gitOut(t, root, "mv", "main.go", "cmd.go") // main.go was changed: RM
	s := startExec(t, root)

	res := s.call("git_commit", map[string]any{"message": "drop the readme", "paths": []any{"README.md"}})
	if res.IsError {
		t.Fatalf("a path deleted with git rm: %s", text(res))
	}
	if got := gitOut(t, root, "show", "--name-status", "--format=", "HEAD"); got != "D\tREADME.md\n" {
		t.Errorf("committed %q, want the deletion of README.md alone", got)
	}

	res = s.call("git_commit", map[string]any{"message": "the rest", "all": true})
	if res.IsError {
		t.Fatalf("all with a rename staged by git mv: %s", text(res))
	}
	if got := gitOut(t, root, "ls-tree", "--name-only", "HEAD"); got != "cmd.go\nnew.go\nnotes.txt\n" {
		t.Errorf("the files committed: %q", got)
	}
	if body := gitOut(t, root, "show", "HEAD:cmd.go"); body != "package main\n\nfunc main() {}\n" {
		t.Errorf("the renamed file's later change was not staged: %q", body)
	}
	if st := gitOut(t, root, "status", "--porcelain"); st != "?? .env\n" {
		t.Errorf("after the commit: %q", st)
	}
}

// git stopped by a lock another git holds (or a crashed one left) is
// CONFLICT naming index.lock and how to remove it, not INVALID_ARGUMENT
// telling the model to check its paths, and never git's text, which names
// the repository's absolute path.
func TestGitCommitLockedIndexSaysWhatToDo(t *testing.T) {
	root := gitRepo(t)
	write(t, root, ".git/index.lock", "")
	s := startExec(t, root)
	head := gitOut(t, root, "rev-parse", "HEAD")
	for _, args := range []map[string]any{{"message": "m", "paths": []any{"notes.txt"}}, {"message": "m", "all": true}} {
		msg := s.fail("git_commit", args, "CONFLICT")
		if !strings.Contains(msg, "index.lock") || !strings.Contains(msg, "rm -f") || strings.Contains(msg, root) {
			t.Errorf("git_commit %v with the index locked: %s", args, msg)
		}
	}
	if gitOut(t, root, "rev-parse", "HEAD") != head {
		t.Fatal("a commit was made")
	}
	os.Remove(filepath.Join(root, ".git/index.lock"))
	s.ok("git_commit", map[string]any{"message": "m", "paths": []any{"notes.txt"}})
}

// A commit with no identity configured is CONFLICT asking the owner to
// set one, not git's text, which names the owner's user and host names.
func TestGitCommitWithoutIdentitySaysWhatToDo(t *testing.T) {
	root := gitRepo(t)
	// No identity: none in the repository, an empty home, and git told
	// not to guess one from the user and host names.
	gitOut(t, root, "config", "--unset", "user.name")
	gitOut(t, root, "config", "--unset", "user.email")
	gitOut(t, root, "config", "user.useConfigOnly", "true")
	head := gitOut(t, root, "rev-parse", "HEAD")
	s := startHomeEnv(t, t.TempDir(), root, t.TempDir(), "--mode", "trusted", "--sandbox", "off")
	host, _ := os.Hostname()
	msg := s.fail("git_commit", map[string]any{"message": "m", "paths": []any{"notes.txt"}}, "CONFLICT")
	if !strings.Contains(msg, "user.email") || !strings.Contains(msg, "owner") || strings.Contains(msg, root) || host != "" && strings.Contains(msg, host) {
		t.Errorf("a commit without identity: %s", msg)
	}
	if gitOut(t, root, "rev-parse", "HEAD") != head {
		t.Fatal("a commit was made")
	}
}

// git_commit runs confined like a command, which writes only inside the
// roots and never in another repository's git folder (its worktrees and
// modules stay read-only): in a linked worktree git add failed on a
// read-only index, told as a path to check. It is refused before
// anything runs, saying why and what to do instead; the main checkout
// still commits.
func TestGitCommitInALinkedWorktreeUnderTheSandbox(t *testing.T) {
	needSandbox(t)
	main, wt := sandboxtest.GitWorkspace(t)
	write(t, wt, "w.txt", "w\n")
	write(t, main, "m.txt", "m\n")
	s := start(t, main, "--root", wt, "--mode", "trusted", "--sandbox", "require")
	if st := s.ok("git_status", map[string]any{"cwd": wt}); !strings.Contains(st, "?? w.txt") {
		t.Fatalf("git_status in the worktree: %s", st)
	}
	side := sandboxtest.Git(t, wt, "rev-parse", "HEAD")
	for _, args := range []map[string]any{{"message": "w", "paths": []any{"w.txt"}, "cwd": wt}, {"message": "w", "all": true, "cwd": wt}} {
		msg := s.fail("git_commit", args, "PATH_DENIED")
		if !strings.Contains(msg, "linked worktree") || !strings.Contains(msg, "terminal") || strings.Contains(msg, main) {
			t.Errorf("git_commit %v in the worktree: %s", args, msg)
		}
	}
	if sandboxtest.Git(t, wt, "rev-parse", "HEAD") != side || sandboxtest.Git(t, wt, "status", "--porcelain") != "?? w.txt\n" {
		t.Error("the worktree changed")
	}
	s.ok("git_commit", map[string]any{"message": "m", "paths": []any{"m.txt"}})
	if got := sandboxtest.Git(t, main, "show", "--name-only", "--format=", "HEAD"); got != "m.txt\n" {
		t.Errorf("the main checkout committed %q", got)
	}
}

// A merge, a rebase or a cherry-pick stopped on a conflict is named by
// git_status, as git's own status names it, with how to finish or abort
// it: a rebase showed only a detached HEAD, and a merge only its
// conflicted files.
func TestGitStatusNamesAnOperationStoppedMidway(t *testing.T) {
	root := gitRepo(t)
	gitOut(t, root, "reset", "-q", "--hard")
	gitOut(t, root, "checkout", "-q", "-b", "other")
	write(t, root, "README.md", "hello\nfrom other\n")
	gitOut(t, root, "commit", "-q", "--no-verify", "-am", "other")
	gitOut(t, root, "checkout", "-q", "main")
	write(t, root, "README.md", "hello\nfrom main\n")
	gitOut(t, root, "commit", "-q", "--no-verify", "-am", "main")
	s := startExec(t, root)
	if st := structured(t, s.call("git_status", map[string]any{})); st["operation"] != nil {
		t.Fatalf("no operation under way: %v", st)
	}
	for _, c := range []struct{ op, start, abort, git string }{
		{"merge", "merge other", "merge --abort", "All conflicts fixed but you are still merging|You have unmerged paths"},
		{"rebase", "rebase other", "rebase --abort", "rebase in progress"},
		{"cherry-pick", "cherry-pick other", "cherry-pick --abort", "You are currently cherry-picking"},
	} {
		cmd := exec.Command("git", strings.Fields(c.start)...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err == nil {
			t.Fatalf("git %s did not stop on a conflict: %s", c.start, out)
		}
		if long := gitOut(t, root, "status"); !regexp.MustCompile(c.git).MatchString(long) {
			t.Fatalf("git status does not say %q:\n%s", c.git, long)
		}
		res := s.call("git_status", map[string]any{})
		if st := structured(t, res); st["operation"] != c.op || !strings.Contains(text(res), c.op+" in progress") || !strings.Contains(text(res), "UU README.md") || !strings.Contains(text(res), c.abort) {
			t.Errorf("%s stopped: %v\n%s", c.op, st["operation"], text(res))
		}
		gitOut(t, root, strings.Fields(c.abort)...)
	}

	// A rebase stopped at a commit to edit: a detached HEAD, no conflict.
	gitOut(t, root, "-c", "sequence.editor=sed -i 1s/^pick/edit/", "rebase", "-q", "-i", "HEAD~1")
	res := s.call("git_status", map[string]any{})
	if st := structured(t, res); st["branch"] != "(detached)" || st["operation"] != "rebase" || !strings.Contains(text(res), "git rebase --continue") {
		t.Errorf("a rebase stopped to edit: %v\n%s", st, text(res))
	}
	gitOut(t, root, "rebase", "--abort")
	if st := structured(t, s.call("git_status", map[string]any{})); st["operation"] != nil {
		t.Errorf("after the abort: %v", st)
	}
}

package test

import "testing"

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

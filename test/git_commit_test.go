package test

import (
	"strings"
	"testing"
)

// A secret a command staged (git add -f .env) is never committed by
// git_commit: with neither paths nor all, and with all, the commit would
// take the whole index, so it is refused without naming the secret, and
// nothing is committed; named paths still commit.
func TestGitCommitRefusesAStagedSecret(t *testing.T) {
	root := gitRepo(t)
	gitOut(t, root, "add", "-f", ".env")
	s := startExec(t, root)
	if out := s.ok("git_status", map[string]any{}); strings.Contains(out, ".env") {
		t.Fatalf("git_status names the secret: %s", out)
	}
	head := gitOut(t, root, "rev-parse", "HEAD")
	for _, args := range []map[string]any{{"message": "m"}, {"message": "m", "all": true}} {
		msg := s.fail("git_commit", args, "SECRET_DENIED")
		if strings.Contains(msg, ".env") || !strings.Contains(msg, "unstage") {
			t.Errorf("git_commit %v: %s", args, msg)
		}
	}
	if gitOut(t, root, "rev-parse", "HEAD") != head {
		t.Fatalf("a commit was made with .env staged")
	}
	s.ok("git_commit", map[string]any{"message": "m", "paths": []any{"notes.txt"}})
	if files := gitOut(t, root, "show", "--name-only", "--format=", "HEAD"); files != "notes.txt\n" {
		t.Errorf("committed %q", files)
	}
}

// git_commit with all works on an ordinary workspace: a file whose name
// starts with ':' is committed as that file, an untracked nested
// repository is left out and said so (not a refusal recommending the call
// that failed), and a message may mention ext::.
func TestGitCommitAllOnOrdinaryWorkspaces(t *testing.T) {
	root := gitRepo(t)
	write(t, root, ":(glob)x", "x\n")
	write(t, root, "nested/n.txt", "n\n")
	gitOut(t, root+"/nested", "init", "-q")
	s := startExec(t, root)
	res := s.call("git_commit", map[string]any{"message": "all of it, not via ext:: anything", "all": true})
	if res.IsError {
		t.Fatal(text(res))
	}
	c := structured(t, res)
	if sk := c["skipped"].([]any); len(sk) != 1 || sk[0] != "nested/" || !strings.Contains(text(res), "nested/") {
		t.Errorf("skipped %v:\n%s", sk, text(res))
	}
	files := gitOut(t, root, "show", "--name-only", "--format=%s", "HEAD")
	if !strings.HasPrefix(files, "all of it, not via ext:: anything\n") || !strings.Contains(files, "\n:(glob)x\n") ||
		strings.Contains(files, "nested") || strings.Contains(files, ".env") {
		t.Errorf("committed %q", files)
	}
}

// A git that fails on the arguments given (a revision or a path that
// names nothing) is an error that says what to check next, as every
// error's message does (SPEC §10).
func TestGitFailuresSayWhatToDoNext(t *testing.T) {
	root := gitRepo(t)
	s := startExec(t, root)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"git_log", map[string]any{"revision": "no-such-branch"}, "git_log"},
		{"git_diff", map[string]any{"revision": "no-such-branch"}, "git_log"},
		{"git_commit", map[string]any{"message": "m", "paths": []any{"no-such-file.txt"}}, "git_status"},
	} {
		msg := s.fail(c.tool, c.args, "INVALID_ARGUMENT")
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s %v: the message names no next step (%s): %s", c.tool, c.args, c.want, msg)
		}
	}
}

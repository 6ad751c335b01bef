package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// A file whose name is not UTF-8 cannot be named in a tool's arguments
// (JSON turns its bytes into U+FFFD, a name of no file): git_commit with
// all leaves it out and says so, and commits the rest, rather than
// failing the whole commit on a pathspec git cannot match.
func TestGitCommitAllLeavesOutNamesThatAreNotText(t *testing.T) {
	root := gitRepo(t)
	write(t, root, "caf\xe9.txt", "latin-1 name\n")
	s := startExec(t, root)
	res := s.call("git_commit", map[string]any{"message": "all", "all": true})
	if res.IsError {
		t.Fatalf("one name that is not UTF-8 fails the whole commit: %s", text(res))
	}
	if !strings.Contains(text(res), "not UTF-8") || !strings.Contains(text(res), "run_command") {
		t.Errorf("the text does not say why a file was left out, and how to commit it:\n%s", text(res))
	}
	files := gitOut(t, root, "show", "--name-only", "--format=", "HEAD")
	if !strings.Contains(files, "notes.txt\n") || strings.Contains(files, "caf") {
		t.Errorf("committed %q", files)
	}
	if st := gitOut(t, root, "status", "--porcelain"); !strings.Contains(st, "?? ") {
		t.Errorf("the file that is not text was staged or lost: %q", st)
	}

	// With nothing else to commit, the refusal says why and what to do.
	gitOut(t, root, "checkout", "-q", "--", ".")
	msg := s.fail("git_commit", map[string]any{"message": "again", "all": true}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "not UTF-8") || !strings.Contains(msg, "run_command") {
		t.Errorf("refusal: %s", msg)
	}
}

// git_commit with nothing staged is told as such, INVALID_ARGUMENT with
// what to pass, not a CONFLICT quoting git's status, which lists every
// untracked file, the secrets the reads withhold included; a commit on a detached HEAD says so
// rather than "on " and an empty branch.
func TestGitCommitNothingStagedAndDetached(t *testing.T) {
	root := gitRepo(t)
	gitOut(t, root, "reset", "-q")
	s := startExec(t, root)
	msg := s.fail("git_commit", map[string]any{"message": "nothing"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "nothing is staged") || !strings.Contains(msg, "paths") || !strings.Contains(msg, "all: true") || strings.Contains(msg, ".env") {
		t.Errorf("nothing staged: %s", msg)
	}

	gitOut(t, root, "checkout", "-q", "--detach", "HEAD~1")
	res := s.call("git_commit", map[string]any{"message": "detached", "paths": []any{"notes.txt"}})
	if res.IsError {
		t.Fatal(text(res))
	}
	if first, _, _ := strings.Cut(text(res), "\n"); !strings.HasSuffix(first, " on a detached HEAD") || structured(t, res)["branch"] != "(detached)" {
		t.Errorf("a detached commit: %q, branch %v", first, structured(t, res)["branch"])
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

// git_commit with all stages a change of thousands of files (a vendored
// or generated tree): their names together passed what the kernel lets
// one program receive (ARG_MAX, 2 MiB as a rule, 6 MiB at most), git add
// failed with TOO_LARGE, and what was left to the model was git add -A,
// which stages secrets too. juju stages them in batches, still leaving
// the secret out.
func TestGitCommitAllStagesMoreNamesThanOneProgramTakes(t *testing.T) {
	root := gitRepo(t)
	n := len(longNamedFiles(t, root))
	s := startExec(t, root)
	res := s.callFor(3*time.Minute, "git_commit", map[string]any{"message": "generated", "all": true})
	if res.IsError {
		t.Fatal(text(res))
	}
	if got := strings.Count(gitOut(t, root, "ls-files", "gen"), "\n"); got != n {
		t.Errorf("%d files of gen committed, want %d", got, n)
	}
	if files := gitOut(t, root, "ls-files", ".env"); files != "" {
		t.Errorf("the secret was committed: %q", files)
	}
}

// git_commit with paths commits exactly the files named, however many: it
// staged them in batches but named them all to one git commit, which past
// what the kernel lets a program receive failed with TOO_LARGE. The secret
// among them stays out, and a change staged before that the paths do not
// name stays staged, uncommitted.
func TestGitCommitPathsCommitsMoreNamesThanOneProgramTakes(t *testing.T) {
	root := gitRepo(t)
	names := longNamedFiles(t, root)
	n := len(names)
	paths := []any{".env"}
	for _, name := range names {
		paths = append(paths, name)
	}
	if err := os.WriteFile(filepath.Join(root, "other.txt"), []byte("staged before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitOut(t, root, "add", "other.txt")
	s := startExec(t, root)
	res := s.callFor(3*time.Minute, "git_commit", map[string]any{"message": "generated", "paths": paths})
	if res.IsError {
		t.Fatal(text(res))
	}
	if got := strings.Count(gitOut(t, root, "ls-tree", "-r", "--name-only", "HEAD", "gen"), "\n"); got != n {
		t.Errorf("%d files of gen committed, want %d", got, n)
	}
	if files := gitOut(t, root, "ls-tree", "--name-only", "HEAD", ".env", "new.go", "other.txt"); files != "" {
		t.Errorf("a file not to commit was committed: %q", files)
	}
	if staged := gitOut(t, root, "diff", "--cached", "--name-only"); staged != "new.go\nother.txt\n" {
		t.Errorf("the changes staged before are no longer staged alone: %q", staged)
	}
	// The same paths again have nothing to commit, and git refuses with
	// its status on stdout, which names the untracked files, .env among
	// them. The refusal says so, however many paths were given: the check
	// of what they stage named them all to one git, which failed past the
	// kernel's limit, and the refusal passed git's status on.
	res = s.callFor(3*time.Minute, "git_commit", map[string]any{"message": "again", "paths": paths})
	if !res.IsError || !strings.HasPrefix(text(res), "INVALID_ARGUMENT: ") || !strings.Contains(text(res), "no change to commit") {
		t.Errorf("the same paths again: want INVALID_ARGUMENT saying they have no change, got %.2000s", text(res))
	}
	if strings.Contains(text(res), ".env") || strings.Contains(text(res), "notes.txt") {
		t.Errorf("the refusal shows git's status, the untracked secret's name in it: %.2000s", text(res))
	}
}

// longNamedFiles writes 6,600 files of names of about 1,000 bytes below
// root/gen and returns their paths from root: 6.6 MB of names, past 6
// MiB, the most Linux lets a program receive whatever the stack limit,
// and few enough files for git to match quickly.
func longNamedFiles(t *testing.T, root string) []string {
	t.Helper()
	seg := strings.Repeat("x", 240)
	rel := "gen/" + strings.Repeat(seg+"/", 4)
	if err := os.MkdirAll(filepath.Join(root, rel), 0o755); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 6600)
	for i := range names {
		names[i] = rel + fmt.Sprintf("%05d", i)
		if err := os.WriteFile(filepath.Join(root, names[i]), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return names
}

package test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo makes a real repository in a fresh workspace: two commits, then
// a modified file, a staged new file, an untracked file and an untracked
// .env, with a pre-commit hook that leaves a mark.
func gitRepo(t *testing.T) string {
	t.Helper()
	root := workspace(t, map[string]string{"main.go": "package main\n", "README.md": "hello\n"})
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q", "-b", "main")
	git("config", "user.name", "Owner Name")
	git("config", "user.email", "owner@example.com")
	git("add", ".")
	git("commit", "-q", "-m", "first")
	write(t, root, "README.md", "hello\nworld\n")
	git("commit", "-q", "-am", "second")
	write(t, root, "main.go", "package main\n\nfunc main() {}\n")
	write(t, root, "new.go", "package main\n")
	git("add", "new.go")
	write(t, root, "notes.txt", "n\n")
	write(t, root, ".env", "API_TOKEN=hunter2\n")
	write(t, root, ".git/hooks/pre-commit", "#!/bin/sh\necho hook ran > .git/hook-mark\necho pre-commit says hi >&2\n")
	os.Chmod(filepath.Join(root, ".git/hooks/pre-commit"), 0o755)
	return root
}

func write(t *testing.T, root, name, content string) {
	t.Helper()
	p := filepath.Join(root, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gitIn runs git in dir with no system configuration, dir as its home and
// a fixed author, and returns what it printed; a failure ends the test.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func gitOut(t *testing.T, root string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}

func TestGitReadTools(t *testing.T) {
	root := gitRepo(t)
	s := startExec(t, root)

	st := structured(t, s.call("git_status", map[string]any{}))
	if st["branch"] != "main" || st["clean"] != false {
		t.Errorf("status: %v", st)
	}
	got := map[string]string{}
	for _, f := range st["files"].([]any) {
		f := f.(map[string]any)
		got[f["path"].(string)] = f["staged"].(string) + f["unstaged"].(string)
	}
	want := map[string]string{"main.go": " M", "new.go": "A ", "notes.txt": "??"}
	if len(got) != len(want) {
		t.Errorf("files %v, want %v (and never .env)", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	// True to the repository: git itself agrees (it also lists .env).
	if porcelain := gitOut(t, root, "status", "--porcelain"); !strings.Contains(porcelain, "?? .env") || !strings.Contains(porcelain, " M main.go") {
		t.Fatalf("git status: %s", porcelain)
	}

	res := s.call("git_diff", map[string]any{})
	if diff := text(res); !strings.Contains(diff, "+func main() {}") || strings.Contains(diff, "new.go") || num(t, structured(t, res), "bytes") != int64(len(diff)) {
		t.Errorf("unstaged diff: %s (%v)", diff, structured(t, res))
	}
	if diff := s.ok("git_diff", map[string]any{"staged": true}); !strings.Contains(diff, "new.go") || strings.Contains(diff, "main.go") {
		t.Errorf("staged diff: %s", diff)
	}
	if diff := s.ok("git_diff", map[string]any{"revision": "HEAD~1", "paths": []any{"README.md"}}); !strings.Contains(diff, "+world") {
		t.Errorf("diff HEAD~1: %s", diff)
	}

	l := structured(t, s.call("git_log", map[string]any{"limit": 5}))
	commits := l["commits"].([]any)
	hashes := strings.Fields(gitOut(t, root, "log", "--format=%H"))
	if len(commits) != 2 || len(hashes) != 2 {
		t.Fatalf("log: %v / %v", commits, hashes)
	}
	for i, c := range commits {
		c := c.(map[string]any)
		if c["hash"] != hashes[i] || c["author"] != "Owner Name" {
			t.Errorf("commit %d: %v, want %s", i, c, hashes[i])
		}
	}
	if c := commits[0].(map[string]any); c["subject"] != "second" {
		t.Errorf("newest: %v", c)
	}
	if l := structured(t, s.call("git_log", map[string]any{"path": "main.go"})); len(l["commits"].([]any)) != 1 {
		t.Errorf("log main.go: %v", l)
	}
	// A path no commit touched is not a history without commits.
	if got := s.ok("git_log", map[string]any{"path": "mian.go"}); got != "no commits that touch \"mian.go\"; check the path (git takes it relative to cwd)\n" {
		t.Errorf("log of a path never committed: %q", got)
	}
}

func TestGitSecretsAndRefusals(t *testing.T) {
	root := gitRepo(t)
	// A tracked secret: its change must not show anywhere.
	gitOut(t, root, "-c", "user.name=x", "-c", "user.email=x@x", "add", "-f", ".env")
	gitOut(t, root, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "env", "--no-verify")
	os.Remove(filepath.Join(root, ".git/hook-mark"))
	write(t, root, ".env", "API_TOKEN=changed-secret\n")
	s := startExec(t, root)

	for _, tool := range []string{"git_diff", "git_status"} {
		if out := text(s.call(tool, map[string]any{})); strings.Contains(out, ".env") || strings.Contains(out, "hunter2") || strings.Contains(out, "changed-secret") {
			t.Errorf("%s shows the secret:\n%s", tool, out)
		}
	}
	s.fail("git_diff", map[string]any{"paths": []any{".env"}}, "SECRET_DENIED")
	s.fail("git_diff", map[string]any{"paths": []any{"../outside"}}, "PATH_DENIED")
	// Pathspec magic is a file's name like any other: no file is so named.
	if out := s.ok("git_diff", map[string]any{"paths": []any{":(top)"}}); out != "no differences\n" {
		t.Errorf("git_diff of \":(top)\": %q", out)
	}
	s.fail("git_diff", map[string]any{"revision": "HEAD:.env"}, "INVALID_ARGUMENT")
	s.fail("git_diff", map[string]any{"revision": "--output=/tmp/x"}, "INVALID_ARGUMENT")
	s.fail("git_log", map[string]any{"revision": "--exec-path=/tmp"}, "INVALID_ARGUMENT")
	s.fail("git_log", map[string]any{"path": "/etc/passwd"}, "PATH_DENIED")
	s.fail("git_commit", map[string]any{"message": "m", "paths": []any{".env"}}, "SECRET_DENIED")
	if out := gitOut(t, root, "diff", "--cached", "--name-only"); strings.Contains(out, ".env") {
		t.Errorf(".env was staged: %s", out)
	}
}

func TestGitCommit(t *testing.T) {
	root := gitRepo(t)
	s := startExec(t, root)

	res := s.call("git_commit", map[string]any{"message": "third: all visible changes", "all": true})
	if res.IsError {
		t.Fatal(text(res))
	}
	c := structured(t, res)
	head := strings.TrimSpace(gitOut(t, root, "rev-parse", "HEAD"))
	if c["commit"] != head || c["branch"] != "main" || !strings.Contains(c["hooks"].(string), "pre-commit says hi") {
		t.Errorf("commit: %v (HEAD %s)", c, head)
	}
	if b, err := os.ReadFile(filepath.Join(root, ".git/hook-mark")); err != nil || string(b) != "hook ran\n" {
		t.Errorf("the pre-commit hook did not run: %q %v", b, err)
	}
	files := gitOut(t, root, "show", "--name-only", "--format=", "HEAD")
	if strings.Fields(files) == nil || !strings.Contains(files, "main.go") || !strings.Contains(files, "notes.txt") || !strings.Contains(files, "new.go") || strings.Contains(files, ".env") {
		t.Errorf("committed files: %q", files)
	}
	if st := gitOut(t, root, "status", "--porcelain"); strings.TrimSpace(st) != "?? .env" {
		t.Errorf("after commit: %q", st)
	}
	if a := gitOut(t, root, "log", "-1", "--format=%an <%ae>"); strings.TrimSpace(a) != "Owner Name <owner@example.com>" {
		t.Errorf("author %q", a)
	}

	// paths: exactly these; a failing hook refuses the commit.
	write(t, root, "a.txt", "a\n")
	write(t, root, "b.txt", "b\n")
	c = structured(t, s.call("git_commit", map[string]any{"message": "only a", "paths": []any{"a.txt"}}))
	if files := gitOut(t, root, "show", "--name-only", "--format=", "HEAD"); strings.TrimSpace(files) != "a.txt" {
		t.Errorf("paths commit: %q (%v)", files, c)
	}
	write(t, root, ".git/hooks/pre-commit", "#!/bin/sh\necho lint failed: fix b.txt >&2\nexit 1\n")
	msg := s.fail("git_commit", map[string]any{"message": "b", "paths": []any{"b.txt"}}, "CONFLICT")
	if !strings.Contains(msg, "lint failed: fix b.txt") {
		t.Errorf("hook output not passed on: %s", msg)
	}
	if n := strings.Count(gitOut(t, root, "log", "--format=%H"), "\n"); n != 4 {
		t.Errorf("%d commits, want 4", n)
	}
	s.fail("git_commit", map[string]any{"message": "x", "paths": []any{"."}}, "INVALID_ARGUMENT")
}

// git_status bounds its own result: tens of thousands of untracked files
// (a build output not ignored) passed what a client takes, the host cut
// the text and left the structured files empty while clean stayed false,
// and its hint named arguments git_status has none of. It lists the first
// paths in both, counts the rest by state, and says to narrow with cwd.
func TestGitStatusBoundsManyFiles(t *testing.T) {
	root := gitRepo(t)
	const n = 9000
	out := filepath.Join(root, "out", strings.Repeat("o", 20))
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := os.WriteFile(filepath.Join(out, fmt.Sprintf("%05d.o", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := startExec(t, root)
	res := s.call("git_status", map[string]any{})
	if res.IsError {
		t.Fatal(text(res))
	}
	body := text(res)
	if strings.Contains(body, "juju cut this result") || !strings.Contains(body, "cwd") {
		t.Errorf("the text was cut by the host, or names no way to narrow: %s", body[max(0, len(body)-600):])
	}
	st := structured(t, res)
	files, _ := st["files"].([]any)
	omitted, _ := st["omitted"].(map[string]any)
	listed := 0
	for _, f := range files {
		if f.(map[string]any)["staged"] == "?" {
			listed++
		}
	}
	if st["truncated"] != true || len(files) == 0 || listed+int(num(t, omitted, "??")) != n+1 {
		t.Errorf("structured: truncated %v, %d files (%d untracked), omitted %v; want the first paths and the rest counted (%d untracked)", st["truncated"], len(files), listed, omitted, n+1)
	}
}

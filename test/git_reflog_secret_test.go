package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git pull writes its command line into the reflog, a remote's URL with
// its password included ("pull https://user:TOKEN@host/…"), as
// .git/config holds it: read_file served .git/logs/HEAD with the token.
// Every reflog is a secret now; git's own history stays readable through
// the git tools.
func TestGitReflogIsASecret(t *testing.T) {
	root := workspace(t, map[string]string{"README.md": "hello\n"})
	upstream := filepath.Join(t.TempDir(), "upstream")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=O", "GIT_AUTHOR_EMAIL=o@e", "GIT_COMMITTER_NAME=O", "GIT_COMMITTER_EMAIL=o@e")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(root, "init", "-q", "-b", "main")
	git(root, "add", ".")
	git(root, "commit", "-q", "-m", "first")
	git(root, "clone", "-q", root, upstream)
	write(t, upstream, "README.md", "second\n")
	git(upstream, "commit", "-q", "-am", "second")
	// The URL with a token, served by the clone beside it.
	const url = "https://user:TOKEN-8d1e@example.com/r"
	git(root, "-c", "url.file://"+upstream+".insteadOf="+url, "pull", "-q", url, "main")
	if b, err := os.ReadFile(filepath.Join(root, ".git/logs/HEAD")); err != nil || !strings.Contains(string(b), "TOKEN-8d1e") {
		t.Fatalf("the reflog does not hold the token: %v\n%s", err, b)
	}
	s := start(t, root)

	for _, p := range []string{".git/logs/HEAD", ".git/logs/refs/heads/main"} {
		s.fail("read_file", map[string]any{"path": p}, "SECRET_DENIED")
		s.fail("file_info", map[string]any{"path": p}, "SECRET_DENIED")
	}
	s.fail("list_directory", map[string]any{"path": ".git/logs"}, "SECRET_DENIED")
	if out := text(s.call("read_files", map[string]any{"paths": []any{".git/logs/HEAD", "README.md"}})); strings.Contains(out, "TOKEN-8d1e") {
		t.Errorf("read_files shows the token:\n%s", out)
	}
	for _, out := range []string{
		text(s.call("list_directory", map[string]any{"path": ".git"})),
		text(s.call("glob_files", map[string]any{"pattern": ".git/**", "includeIgnored": true, "limit": 1000})),
	} {
		for _, leak := range []string{"TOKEN-8d1e", "logs"} {
			if strings.Contains(out, leak) {
				t.Errorf("%q shown:\n%s", leak, out)
			}
		}
	}
	if out := s.ok("git_log", map[string]any{}); !strings.Contains(out, "second") {
		t.Errorf("git_log: %s", out)
	}
}

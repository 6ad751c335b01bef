package test

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// search_code with a pattern ripgrep refuses and Go's regexp takes (\Q…\E
// goes to juju's own search) that costs Go's regexp milliseconds a line
// and matches none (so the search cannot end early at its result cap)
// still answers at its timeoutMs, marked partial: juju's search stops
// between files and inside a file. Unbounded, these files took minutes.
func TestSearchOwnEngineKeepsItsDeadline(t *testing.T) {
	body := strings.Repeat(strings.Repeat("a", 998)+" \n", 2000)
	root := workspace(t, map[string]string{"a.txt": body, "b.txt": body, "c.txt": body, "d.txt": body, "e.txt": body})
	s := start(t, root)
	start := time.Now()
	got := s.ok("search_code", map[string]any{"pattern": `\Q\E[\pL\pN]{300}x`, "timeoutMs": 1000})
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("a search with timeoutMs 1000 answered after %s", took)
	}
	if !strings.Contains(got, "PARTIAL") {
		t.Errorf("want a partial answer: %s", got)
	}
	// A pattern whose program is too large is refused at once.
	msg := s.fail("search_code", map[string]any{"pattern": `[\pL\pN]{1000}`}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "program") {
		t.Errorf("the refusal does not say why: %s", msg)
	}
}

// A repository's configuration, with a remote's password in it, is a
// secret: read_file refuses it, and search_code never searches .git, even
// named as its path.
func TestGitConfigIsNotReadable(t *testing.T) {
	root := gitRepo(t)
	cmd := exec.Command("git", "config", "remote.origin.url", "https://user:SECRETX@example.com/r.git")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git config: %v\n%s", err, out)
	}
	s := start(t, root)
	s.fail("read_file", map[string]any{"path": ".git/config"}, "SECRET_DENIED")
	s.fail("search_code", map[string]any{"pattern": "SECRETX", "path": ".git"}, "PATH_DENIED")
	if got := s.ok("search_code", map[string]any{"pattern": "SECRETX"}); strings.Contains(got, "SECRETX@") {
		t.Errorf("the password was found: %s", got)
	}
	// git itself still reads its configuration.
	if got := s.ok("git_status", map[string]any{}); got == "" {
		t.Error("git_status answered nothing")
	}
}

package test

import (
	"strings"
	"testing"
)

// git_commit refuses a path the owner's deny rules withhold as every
// other tool does, PATH_DENIED, and keeps SECRET_DENIED for secrets
// (SPEC §5, §10): a model told "secret" about a path the owner merely
// keeps out looks for a credential that is not there. A mix holding a
// secret says SECRET_DENIED.
func TestSpecExecGitCommitDeniedIsPathDenied(t *testing.T) {
	root := gitRepo(t)
	write(t, root, "private/notes.txt", "kept out\n")
	home := t.TempDir()
	writeConfig(t, home, "[policy]\ndeny = [\"private/**\"]\n")
	s := startHome(t, home, root, "--mode", "trusted", "--sandbox", "off")
	s.fail("read_file", map[string]any{"path": "private/notes.txt"}, "PATH_DENIED")

	msg := s.fail("git_commit", map[string]any{"message": "m", "paths": []any{"private/notes.txt"}}, "PATH_DENIED")
	if !strings.Contains(msg, "private/notes.txt") {
		t.Errorf("the refusal does not name the path: %s", msg)
	}
	s.fail("git_commit", map[string]any{"message": "m", "paths": []any{".env"}}, "SECRET_DENIED")
	s.fail("git_commit", map[string]any{"message": "m", "paths": []any{"private/notes.txt", ".env"}}, "SECRET_DENIED")
	if got := gitOut(t, root, "log", "-1", "--format=%s"); got != "second\n" {
		t.Errorf("a refused commit committed: %q", got)
	}
}

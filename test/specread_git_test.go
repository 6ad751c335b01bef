package test

import (
	"strings"
	"testing"
)

// TestSpecReadGitOutsideARepository: git_status, git_diff and git_log on a
// folder that is no repository answer NOT_FOUND with a sentence saying
// what to do next and which folder was meant, where they said only "this
// folder is not inside a git repository".
func TestSpecReadGitOutsideARepository(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n"})
	s := start(t, root)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"git_status", map[string]any{}, "the workspace root is not inside a git repository; pass as cwd"},
		{"git_diff", map[string]any{}, "the workspace root is not inside a git repository; pass as cwd"},
		{"git_log", map[string]any{"cwd": "sub"}, "sub is not inside a git repository; pass as cwd"},
	} {
		if msg := s.fail(c.tool, c.args, "NOT_FOUND"); !strings.Contains(msg, c.want) {
			t.Fatalf("%s: %s", c.tool, msg)
		}
	}
}

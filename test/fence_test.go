package test

import (
	"regexp"
	"testing"
)

// TestFenceWordsAreDrawnAnew checks SECURITY.md's fences: the word around
// a repository's text is drawn for each answer from the system's
// randomness, so no file can know it. Two answers in one juju and the
// first answers of two fresh juju processes all differ: a plugin's source
// of randomness that started from a fixed seed would give each new process
// the same words.
func TestFenceWordsAreDrawnAnew(t *testing.T) {
	root := workspace(t, map[string]string{"AGENTS.md": "Be brief.\n"})
	begin := regexp.MustCompile(`===== BEGIN UNTRUSTED PROJECT FILE AGENTS\.md \(agents\) ([0-9a-f]{16}) =====`)
	seen := map[string]int{}
	for proc := range 2 {
		s := start(t, root)
		for range 2 {
			out := s.ok("read_instructions", map[string]any{})
			m := begin.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("no fenced AGENTS.md in:\n%s", out)
			}
			if p, ok := seen[m[1]]; ok {
				t.Errorf("the fence word %s came twice (processes %d and %d)", m[1], p, proc)
			}
			seen[m[1]] = proc
		}
	}
}

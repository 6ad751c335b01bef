package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchPassesOverFilesTooDeepToName: a file more than 256 folders
// deep, which no tool can name, is passed over by both engines without a
// word. It had every search its content matched say that files changed
// while they were searched, and to search again.
func TestSearchPassesOverFilesTooDeepToName(t *testing.T) {
	for _, engine := range []string{"ripgrep", "juju"} {
		t.Run(engine, func(t *testing.T) {
			root := workspace(t, map[string]string{"notes.txt": "needle\n"})
			deep := filepath.Join(root, strings.Repeat("d/", 300))
			if err := os.MkdirAll(deep, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(deep, "plain.txt"), []byte("needle\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if engine == "juju" {
				withoutRipgrep(t)
			}
			s := start(t, root)
			for _, mode := range []string{"content", "files", "count"} {
				res := s.call("search_code", map[string]any{"pattern": "needle", "outputMode": mode})
				got := text(res)
				if res.IsError || !strings.Contains(got, "notes.txt") || strings.Contains(got, "PARTIAL") || strings.Contains(got, "changed") {
					t.Errorf("%s: the answer is not notes.txt's line alone:\n%s", mode, got)
				}
				if sc := structured(t, res); sc["partial"] != false {
					t.Errorf("%s: the structured answer says partial or changed: %v", mode, sc)
				}
			}
		})
	}
}

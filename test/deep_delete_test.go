package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A folder holding a tree deeper than the 256 names juju resolves (a
// runaway recursive copy, a test fixture) was deleted or moved whole by
// the journal, each path costing its whole depth: 400 levels took 10 s,
// 800 outlived the plugin's time after the change was made, and the
// change recorded, for a rollback to put back, paths no argument can
// name. It is refused, saying to use a command, and nothing changes.
func TestTreeDeeperThanResolvedIsNotChanged(t *testing.T) {
	root := workspace(t, map[string]string{"keep.txt": "k\n"})
	deep := filepath.Join(root, "deep", strings.Repeat("d/", 260))
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(deep, "leaf.txt"), []byte("leaf\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, root, "--mode", "trusted")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"delete_path", map[string]any{"path": "deep", "recursive": true}},
		{"move_path", map[string]any{"path": "deep", "destination": "moved"}},
	} {
		msg := s.fail(c.tool, c.args, "INVALID_ARGUMENT")
		if !strings.Contains(msg, "256 names") || !strings.Contains(msg, "run_command") {
			t.Errorf("%s: the refusal names no folder or no way on: %s", c.tool, msg)
		}
	}
	if _, err := os.Stat(filepath.Join(deep, "leaf.txt")); err != nil {
		t.Fatalf("the tree changed: %v", err)
	}
	if got := s.ok("change_history", map[string]any{}); !strings.Contains(got, "No change") {
		t.Fatalf("a change was recorded:\n%s", got)
	}
}

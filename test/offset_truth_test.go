package test

import (
	"strings"
	"testing"
)

// An offset past the end of a list says what is there: change_history
// for a path no change touched says none did, not that none did after the
// newest offset of them; project_overview of a folder with no tasks says
// its offset lists nothing.
func TestOffsetPastTheEndSaysTheTruth(t *testing.T) {
	root := t.TempDir()
	s := start(t, root)
	s.ok("write_file", map[string]any{"path": "a.txt", "content": "a\n"})
	res := s.call("change_history", map[string]any{"path": "never.txt", "offset": 1})
	if got := text(res); res.IsError || !strings.Contains(got, `No change recorded in this workspace touched "never.txt"`) {
		t.Errorf("change_history of an untouched path, offset 1:\n%s", got)
	}
	res = s.call("change_history", map[string]any{"path": "a.txt", "offset": 1})
	if got := text(res); res.IsError || !strings.Contains(got, `after the newest 1 that did`) {
		t.Errorf("change_history of a touched path, offset 1:\n%s", got)
	}
	res = s.call("project_overview", map[string]any{"offset": 5})
	if got := text(res); res.IsError || !strings.Contains(got, "offset 5 is past the last one") {
		t.Errorf("project_overview with no tasks, offset 5:\n%s", got)
	}
}

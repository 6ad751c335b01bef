package test

import (
	"strings"
	"testing"
)

// search_code's files mode lists the matching files and counts no lines:
// its result carries no "matches": 0 a model would read as nothing found,
// and its text names the files it lists.
func TestSearchCodeFilesModeCountsNoZero(t *testing.T) {
	root := workspace(t, map[string]string{"a.go": "foo()\n", "b.go": "foo\nfoo\n"})
	s := start(t, root)
	res := s.call("search_code", map[string]any{"pattern": "foo", "outputMode": "files"})
	if res.IsError {
		t.Fatal(text(res))
	}
	sc := structured(t, res)
	if m, ok := sc["matches"]; ok {
		t.Errorf("files mode reports matches %v beside the files it lists: %v", m, sc)
	}
	if files, _ := sc["files"].([]any); len(files) != 2 {
		t.Errorf("files: %v", sc["files"])
	}
	if txt := text(res); !strings.Contains(txt, "2 files") || strings.Contains(txt, "0 matching") {
		t.Errorf("text:\n%s", txt)
	}
	// The other modes still count.
	sc = structured(t, s.call("search_code", map[string]any{"pattern": "foo", "outputMode": "count"}))
	if sc["matches"] != float64(3) {
		t.Errorf("count mode: matches %v, want 3", sc["matches"])
	}
	sc = structured(t, s.call("search_code", map[string]any{"pattern": "nothing-like-this"}))
	if sc["matches"] != float64(0) {
		t.Errorf("content mode, no match: matches %v, want 0", sc["matches"])
	}
}

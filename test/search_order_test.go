package test

import (
	"fmt"
	"slices"
	"testing"
)

// search_code answers its files in path order, whichever engine searches
// and however its threads end: rg's threads and the host's own search
// named files in the order they finished them, so the same search
// answered in a different order each time, and rg and the host's search
// answered it differently.
func TestSearchAnswersInPathOrder(t *testing.T) {
	files := map[string]string{}
	for d := range 12 {
		for f := range 12 {
			files[fmt.Sprintf("d%d/f%d.txt", d, f)] = fmt.Sprintf("needle %d %d\n", d, f)
		}
	}
	root := workspace(t, files)
	answers := func(s *session) map[string][]string {
		out := map[string][]string{}
		for _, mode := range []string{"content", "files", "count"} {
			res := s.call("search_code", map[string]any{"pattern": "needle", "outputMode": mode, "maxResults": 2000})
			if res.IsError {
				t.Fatalf("search_code %s: %s", mode, text(res))
			}
			var paths []string
			for _, f := range structured(t, res)["files"].([]any) {
				paths = append(paths, f.(map[string]any)["path"].(string))
			}
			if len(paths) != len(files) {
				t.Fatalf("%s mode named %d files, want %d", mode, len(paths), len(files))
			}
			if !slices.IsSorted(paths) {
				t.Errorf("%s mode: the files are not in path order: %q", mode, paths[:12])
			}
			out[mode] = append(paths, text(res))
		}
		return out
	}
	rg := start(t, root)
	first := answers(rg)
	if again := answers(rg); fmt.Sprint(again) != fmt.Sprint(first) {
		t.Errorf("the same search answered differently the second time")
	}
	withoutRipgrep(t)
	if own := answers(start(t, root)); fmt.Sprint(own) != fmt.Sprint(first) {
		t.Errorf("rg and juju's own search answered the same search differently")
	}
}

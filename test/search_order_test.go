package test

import (
	"fmt"
	"slices"
	"strings"
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

// Under maxResults, search_code keeps the first files in path order, in
// every mode and with either engine: the cut stopped at whichever files
// rg's threads (or the host's own search) finished first, so the same
// search over the same files kept other files each time, and rg and the
// host's search kept different ones.
func TestSearchCutKeepsTheFirstFilesInPathOrder(t *testing.T) {
	files := map[string]string{}
	var paths []string
	for d := range 16 {
		for f := range 16 {
			p := fmt.Sprintf("d%02d/f%02d.txt", d, f)
			files[p] = strings.Repeat("needle\n", 1+(d*f)%7)
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	root := workspace(t, files)
	// content mode, maxResults 7: the lines of the first files in path
	// order, the last of them cut.
	var want []string
	for _, p := range paths {
		for n := range strings.Count(files[p], "\n") {
			if len(want) < 7 {
				want = append(want, fmt.Sprintf("%s:%d", p, n+1))
			}
		}
	}
	check := func(s *session, engine string) {
		for range 3 {
			res := s.call("search_code", map[string]any{"pattern": "needle", "maxResults": 7, "contextLines": 1})
			var got []string
			for _, f := range structured(t, res)["files"].([]any) {
				f := f.(map[string]any)
				for _, m := range f["matches"].([]any) {
					got = append(got, fmt.Sprintf("%s:%v", f["path"], m.(map[string]any)["line"]))
				}
			}
			if !slices.Equal(got, want) || structured(t, res)["truncated"] != true {
				t.Errorf("%s, content: kept %q (truncated %v), want %q", engine, got, structured(t, res)["truncated"], want)
			}
			for _, mode := range []string{"files", "count"} {
				res := s.call("search_code", map[string]any{"pattern": "needle", "outputMode": mode, "maxResults": 5})
				var got []string
				for _, f := range structured(t, res)["files"].([]any) {
					got = append(got, f.(map[string]any)["path"].(string))
				}
				if !slices.Equal(got, paths[:5]) || structured(t, res)["truncated"] != true {
					t.Errorf("%s, %s: kept %q (truncated %v), want %q", engine, mode, got, structured(t, res)["truncated"], paths[:5])
				}
			}
		}
	}
	check(start(t, root), "rg")
	withoutRipgrep(t)
	check(start(t, root), "juju's own search")
}

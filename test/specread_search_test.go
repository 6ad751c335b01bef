package test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// searchLines returns "path:line" of every match in a search_code
// result's structured content.
func searchLines(t *testing.T, sc map[string]any) []string {
	t.Helper()
	var got []string
	files, _ := sc["files"].([]any)
	for _, f := range files {
		f := f.(map[string]any)
		ms, _ := f["matches"].([]any)
		for _, m := range ms {
			got = append(got, fmt.Sprintf("%s:%v", f["path"], m.(map[string]any)["line"]))
		}
	}
	slices.Sort(got)
	return got
}

// TestSpecReadSearchLastLineWithoutBreak: a pattern ending in $ finds a
// match on a file's last line when that line has no line break, with
// either engine. rg's --crlf mode (which $ turns on) prints such a line
// with a "\r\n" it does not have, so the host's check of the line rg
// named used to drop it: "y$" found nothing in "x\ny".
func TestSpecReadSearchLastLineWithoutBreak(t *testing.T) {
	for _, engine := range []string{"ripgrep", "juju"} {
		t.Run(engine, func(t *testing.T) {
			root := workspace(t, map[string]string{
				"unix.txt": "x\ny",
				"dos.txt":  "a\r\nbay",
				"trail.go": "package p\n\nvar v = 1   ",
			})
			if engine == "juju" {
				withoutRipgrep(t)
			}
			s := start(t, root)
			for _, c := range []struct {
				pattern string
				want    []string
			}{
				{`y$`, []string{"dos.txt:2", "unix.txt:2"}},
				{`^y$`, []string{"unix.txt:2"}},
				{`\s+$`, []string{"trail.go:3"}},
			} {
				res := s.call("search_code", map[string]any{"pattern": c.pattern})
				if res.IsError {
					t.Fatalf("%s: %s", c.pattern, text(res))
				}
				sc := structured(t, res)
				if sc["engine"] != engine {
					t.Fatalf("%s: engine %v, want %s", c.pattern, sc["engine"], engine)
				}
				if got := searchLines(t, sc); !slices.Equal(got, c.want) {
					t.Fatalf("%s: matches %v, want %v:\n%s", c.pattern, got, c.want, text(res))
				}
			}
		})
	}
}

// TestSpecReadSearchCapNamesNoEmptyFile: when maxResults is reached
// exactly by the files already taken, the next file rg names is not added
// without its lines: the answer named a file with no match ("1 matching
// line in 2 files", the second with no line).
func TestSpecReadSearchCapNamesNoEmptyFile(t *testing.T) {
	for _, engine := range []string{"ripgrep", "juju"} {
		t.Run(engine, func(t *testing.T) {
			root := workspace(t, map[string]string{
				"a.txt": "foo\n",
				"b.txt": "foo\n",
				"c.txt": "foo\n",
			})
			if engine == "juju" {
				withoutRipgrep(t)
			}
			s := start(t, root)
			for _, max := range []int{1, 2} {
				res := s.call("search_code", map[string]any{"pattern": "foo", "maxResults": max})
				if res.IsError {
					t.Fatal(text(res))
				}
				sc := structured(t, res)
				files, _ := sc["files"].([]any)
				if len(files) != max || sc["matches"] != float64(max) || sc["truncated"] != true {
					t.Fatalf("maxResults %d: %d files, matches %v, truncated %v, want %d, %d, true:\n%s", max, len(files), sc["matches"], sc["truncated"], max, max, text(res))
				}
				for _, f := range files {
					if ms, _ := f.(map[string]any)["matches"].([]any); len(ms) == 0 {
						t.Fatalf("maxResults %d: file %v has no match:\n%s", max, f, text(res))
					}
				}
				if want := fmt.Sprintf("in %d file", max); !strings.Contains(text(res), want) {
					t.Fatalf("maxResults %d: the text does not say %q:\n%s", max, want, text(res))
				}
			}
		})
	}
}

// TestSpecReadSearchCountCapSaysWhy: in count mode a file's count stops
// at 10,000 matching lines; the summary says so, with either engine,
// instead of "10000 matching lines in 1 file; stopped at maxResults
// (100)", a cap the one file returned did not reach and a count the file
// exceeds.
func TestSpecReadSearchCountCapSaysWhy(t *testing.T) {
	for _, engine := range []string{"ripgrep", "juju"} {
		t.Run(engine, func(t *testing.T) {
			root := workspace(t, map[string]string{
				"many.txt": strings.Repeat("hit\n", 12000),
				"few.txt":  "hit\n",
			})
			if engine == "juju" {
				withoutRipgrep(t)
			}
			s := start(t, root)
			res := s.call("search_code", map[string]any{"pattern": "hit", "outputMode": "count"})
			if res.IsError {
				t.Fatal(text(res))
			}
			got := text(res)
			if sc := structured(t, res); sc["engine"] != engine || sc["truncated"] != true {
				t.Fatalf("engine %v, truncated %v: %s", sc["engine"], sc["truncated"], got)
			}
			if !strings.Contains(got, "many.txt:10000 or more") || !strings.Contains(got, "few.txt:1\n") {
				t.Fatalf("counts:\n%s", got)
			}
			if strings.Contains(got, "maxResults") || !strings.Contains(got, "10001 or more matching lines in 2 files") ||
				!strings.Contains(got, "count stops at 10000") {
				t.Fatalf("the summary does not say why the count stopped:\n%s", got)
			}
		})
	}
}

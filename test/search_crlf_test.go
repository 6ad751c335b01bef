package test

import (
	"testing"
)

// TestSearchLineEndInCRLFFiles: $ matches at the end of a CRLF file's
// line as read_file shows it (without its \r), with either engine, as rg's
// --crlf reads it; foo$ found nothing in a CRLF file and \s+$ matched its
// every line. A pattern naming \r still finds the \r.
func TestSearchLineEndInCRLFFiles(t *testing.T) {
	for _, engine := range []string{"ripgrep", "juju"} {
		t.Run(engine, func(t *testing.T) {
			root := workspace(t, map[string]string{
				"dos.txt":  "foo\r\nbar  \r\nbaz\r\n",
				"unix.txt": "foo\nqux\n",
			})
			if engine == "juju" {
				withoutRipgrep(t)
			}
			s := start(t, root)
			for _, c := range []struct {
				pattern string
				want    map[string][]float64 // path → matching lines
			}{
				{`foo$`, map[string][]float64{"dos.txt": {1}, "unix.txt": {1}}},
				{`\s+$`, map[string][]float64{"dos.txt": {2}}},
				{`^ba\w$`, map[string][]float64{"dos.txt": {3}}},
				{`\r$`, map[string][]float64{"dos.txt": {1, 2, 3}}},
			} {
				res := s.call("search_code", map[string]any{"pattern": c.pattern})
				if res.IsError {
					t.Fatalf("%s: %s", c.pattern, text(res))
				}
				sc := structured(t, res)
				if sc["engine"] != engine || sc["partial"] != false {
					t.Fatalf("%s: engine %v, partial %v: %s", c.pattern, sc["engine"], sc["partial"], text(res))
				}
				got := map[string][]float64{}
				files, _ := sc["files"].([]any)
				for _, f := range files {
					f := f.(map[string]any)
					for _, m := range f["matches"].([]any) {
						got[f["path"].(string)] = append(got[f["path"].(string)], m.(map[string]any)["line"].(float64))
					}
				}
				if len(got) != len(c.want) {
					t.Fatalf("%s: matches %v, want %v", c.pattern, got, c.want)
				}
				for p, lines := range c.want {
					if len(got[p]) != len(lines) {
						t.Fatalf("%s: matches %v, want %v", c.pattern, got, c.want)
					}
					for i := range lines {
						if got[p][i] != lines[i] {
							t.Fatalf("%s: matches %v, want %v", c.pattern, got, c.want)
						}
					}
				}
			}
		})
	}
}

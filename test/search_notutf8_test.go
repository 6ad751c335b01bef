package test

import (
	"encoding/json"
	"os/exec"
	"testing"
)

// A byte that is not UTF-8 is matched by no part of a pattern, with
// either engine: rg matches only characters, while the host's own search
// read such a byte as U+FFFD, which ., \S, [^x] and \x{FFFD} match, so
// "caf." found "caf\xe9" in a Latin-1 file without rg and "caf!" with it.
func TestSearchEnginesAgreeOnBytesNotUTF8(t *testing.T) {
	root := workspace(t, map[string]string{
		"latin1.txt": "caf\xe9 caf!\nok needle\n",
		"tail.txt":   "needle \xff\xfe\n\xe2\x82 half\nx\xffy\n",
	})
	patterns := []string{`caf.`, `(?s)caf.`, `caf\S`, `caf[^x]`, `\x{FFFD}`, `.$`, `e.\s*$`, `.{2}$`, `^.{3}$`, `x.?y`, `[[:^alpha:]]+$`, `\bhalf`}
	answers := func(s *session) map[string]string {
		out := map[string]string{}
		for _, p := range patterns {
			res := s.call("search_code", map[string]any{"pattern": p})
			if res.IsError {
				t.Fatalf("search_code %s: %s", p, text(res))
			}
			files, _ := json.Marshal(structured(t, res)["files"])
			out[p] = string(files)
		}
		return out
	}
	var rg map[string]string
	if _, err := exec.LookPath("rg"); err == nil {
		rg = answers(start(t, root))
	}
	withoutRipgrep(t)
	got := answers(start(t, root))
	want := `[{"matches":[{"column":6,"line":1,"text":"caf� caf!"}],"path":"latin1.txt"}]`
	if got[`caf.`] != want {
		t.Errorf("caf. without rg: %s\nwant only caf! at column 6: %s", got[`caf.`], want)
	}
	for _, p := range patterns {
		if rg != nil && got[p] != rg[p] {
			t.Errorf("%s: rg and juju's own search answered differently:\nrg:   %s\njuju: %s", p, rg[p], got[p])
		}
	}
}

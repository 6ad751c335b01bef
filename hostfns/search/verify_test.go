package search

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

// fakeRG writes a program that ignores its arguments and prints out, as
// rg would, and returns its path.
func fakeRG(t *testing.T, out ...string) string {
	t.Helper()
	dir := t.TempDir()
	prog, data := filepath.Join(dir, "rg"), filepath.Join(dir, "out")
	if err := os.WriteFile(data, []byte(strings.Join(out, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(prog, []byte("#!/bin/sh\nexec cat "+data+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return prog
}

// match is one line of rg's output: the line n of path reads line, which
// matches from its first byte.
func match(path string, n int, line string) string {
	return fmt.Sprintf("%s\x00%d:1:%s\n", path, n, line)
}

// TestRGOnlyNominates: rg's output is taken as nominations, never as
// content. A "ripgrep" that reports lines the files do not hold (what rg
// prints when it read another file, say an outside folder swapped in for a
// moment) gets only the lines the host read the same at the same numbers,
// shown with the host's text and the host's context lines; the rest is
// dropped without a word (rg names a file only when the pattern matches
// what it read, so saying files changed would say an outside file
// matched). Names that are not the root's files are neither shown nor
// counted hidden.
func TestRGOnlyNominates(t *testing.T) {
	root := testfs.Workspace(t, map[string]string{
		"a.txt": "one\nneedle inside\nthree\nfour\n",
		"b.txt": "needle b\n",
	})
	rg := fakeRG(t,
		match("a.txt", 2, "needle inside"),                  // the host reads the same: kept
		match("a.txt", 3, "needle OUTSIDE"),                 // the host reads "three": dropped
		match("a.txt", 9, "needle OUTSIDE"),                 // past the host's end: dropped
		"a.txt: binary file matches (found \"\\0\" byte)\n", // not a line: ignored
		match("b.txt", 1, "needle OUTSIDE"),                 // the one line differs: the file is dropped
		match("only-outside.txt", 1, "needle OUTSIDE"),      // no such file in the root
		match("../escape.txt", 1, "needle OUTSIDE"),
	)
	p := newPolicy(t, root)
	for _, mode := range []string{abi.SearchContent, abi.SearchFiles, abi.SearchCount} {
		t.Run(mode, func(t *testing.T) {
			res := call(t, p, Options{RG: rg}, abi.SearchRequest{Pattern: "needle", Mode: mode, ContextLines: 2})
			raw, _ := json.Marshal(res)
			if strings.Contains(string(raw), "OUTSIDE") {
				t.Fatalf("rg's text reached the result: %s", raw)
			}
			wantMatches := 1 // a.txt's line 2
			if mode == abi.SearchFiles {
				wantMatches = 0 // files mode counts no lines
			}
			if res.Error != nil || res.Changed || res.Hidden != 0 || res.Matches != wantMatches {
				t.Fatalf("want a.txt's one line, nothing said changed or hidden: %s", raw)
			}
			if len(res.Files) != 1 || res.Files[0].Path != "a.txt" {
				t.Fatalf("files: %s", raw)
			}
			f := res.Files[0]
			switch mode {
			case abi.SearchCount:
				if f.Count != 1 {
					t.Fatalf("count %d, want 1", f.Count)
				}
			case abi.SearchContent:
				want := abi.SearchMatch{Line: 2, Column: 1, Text: "needle inside", Before: []string{"one"}, After: []string{"three", "four"}}
				if len(f.Matches) != 1 || fmt.Sprint(f.Matches[0]) != fmt.Sprint(want) {
					t.Fatalf("matches %+v, want %+v", f.Matches, want)
				}
			}
		})
	}
}

// TestUnconfirmedNominationsChangeNothing: rg reads files by path, so a
// folder swapped for a link out of the roots while it runs has it read
// outside files under the root's names (TestSearchAnswerIsNoOracleOfOutsideFiles
// end to end). Whatever it then nominates that the host does not confirm —
// lines of a file the root holds under that name, a file the root does
// not hold — the answer is the one rg gives without them, field by field,
// in every mode and at every cap: neither "files changed" nor "more
// matches exist" (counted from rg's lines before the host read them) may
// tell that an outside file matched.
func TestUnconfirmedNominationsChangeNothing(t *testing.T) {
	root := testfs.Workspace(t, map[string]string{
		"decoy.txt": "DECOY\n",
		"d/token":   "nothing to see\nnor here\n",
	})
	p := newPolicy(t, root)
	plain := fakeRG(t, match("decoy.txt", 1, "DECOY"))
	var outside []string
	for n := 1; n <= abi.MaxFileCount+1; n++ {
		outside = append(outside, match("d/token", n, "tok=SECRET"))
	}
	raced := fakeRG(t, append([]string{match("decoy.txt", 1, "DECOY")}, append(outside, match("d/only-outside", 1, "tok=SECRET"))...)...)
	for _, mode := range []string{abi.SearchContent, abi.SearchFiles, abi.SearchCount} {
		for _, max := range []int{0, 1} {
			req := abi.SearchRequest{Pattern: "DECOY|tok=SECRET", Mode: mode, MaxResults: max}
			want, _ := json.Marshal(call(t, p, Options{RG: plain}, req))
			got, _ := json.Marshal(call(t, p, Options{RG: raced}, req))
			if string(got) != string(want) {
				t.Errorf("%s, maxResults %d: rg's unconfirmed lines changed the answer:\n%s\nwithout them:\n%s", mode, max, got, want)
			}
		}
	}
}

// TestRGAgreesWithHost: real rg and the host's read agree on the lines of
// files rg decodes or numbers in its own way (CRLF, a byte-order mark,
// UTF-16, no final line break, invalid UTF-8, lines far longer than what
// is shown), so none of their matches is dropped. A long line is shown from
// its start when its match is near it, and around the match when it lies
// further in: past the first 1,000 bytes it would be out of view.
func TestRGAgreesWithHost(t *testing.T) {
	needRG(t)
	long := strings.Repeat("é", 10000) + " needle" + strings.Repeat(" tail", 300)
	longHead := "needle " + strings.Repeat("é", 3000)
	utf16 := []byte{0xff, 0xfe}
	for _, r := range "x\r\nneedle utf16\r\ny\r\n" {
		utf16 = append(utf16, byte(r), 0)
	}
	root := testfs.Workspace(t, map[string]string{
		"crlf.txt":  "a\r\nneedle crlf\r\nb\r\n",
		"bom.txt":   "\xef\xbb\xbfneedle bom\nafter\n",
		"nonl.txt":  "before\nlast needle",
		"bad.txt":   "\xfd\xff needle bad\n",
		"long.txt":  "short\n" + long + "\nnext\n",
		"head.txt":  longHead + "\n",
		"utf16.txt": string(utf16),
	})
	p := newPolicy(t, root)
	res := call(t, p, Options{}, abi.SearchRequest{Pattern: "needle", ContextLines: 1})
	if res.Error != nil || res.Changed {
		t.Fatalf("rg and the host disagree: %+v", res)
	}
	got := map[string]abi.SearchMatch{}
	for _, f := range res.Files {
		if len(f.Matches) != 1 {
			t.Fatalf("%s: %+v", f.Path, f.Matches)
		}
		got[f.Path] = f.Matches[0]
	}
	// The match begins at byte 20001; the window 120 bytes before it, on
	// the start of an é (two bytes each).
	cutLong := "…[19880 bytes cut] " + long[19880:19880+MaxLineBytes] + " …[line cut]"
	cutHead := longHead[:MaxLineBytes-1] + " …[line cut]" // é is two bytes, and starts at odd offsets here
	for path, want := range map[string]abi.SearchMatch{
		"crlf.txt":  {Line: 2, Column: 1, Text: "needle crlf", Before: []string{"a"}, After: []string{"b"}},
		"bom.txt":   {Line: 1, Column: 1, Text: "needle bom", After: []string{"after"}},
		"nonl.txt":  {Line: 2, Column: 6, Text: "last needle", Before: []string{"before"}},
		"bad.txt":   {Line: 1, Column: 3, Text: "\ufffd needle bad"}, // in the code points shown
		"long.txt":  {Line: 2, Column: 10002, Text: cutLong, Before: []string{"short"}, After: []string{"next"}},
		"head.txt":  {Line: 1, Column: 1, Text: cutHead},
		"utf16.txt": {Line: 2, Column: 1, Text: "needle utf16", Before: []string{"x"}, After: []string{"y"}},
	} {
		if fmt.Sprint(got[path]) != fmt.Sprint(want) {
			t.Errorf("%s:\n got  %+v\n want %+v", path, got[path], want)
		}
	}
	for _, mode := range []string{abi.SearchFiles, abi.SearchCount} {
		res := call(t, p, Options{}, abi.SearchRequest{Pattern: "needle", Mode: mode})
		if res.Error != nil || res.Changed || len(res.Files) != 7 {
			t.Fatalf("%s: %+v", mode, res)
		}
	}
}

// TestVerify checks candidates against a host read directly: only the
// lines needed are kept, a line that differs or lies past the end is
// dropped.
func TestVerify(t *testing.T) {
	seed := maphash.MakeSeed()
	body := "l1\nl2 x\nl3\nl4\nl5 x\nl6\nl7\nl8\n"
	cand := func(n int, line string) candidate {
		return nominate(n, []byte(line), 3, true, seed)
	}
	cands := []candidate{cand(2, "l2 x"), cand(5, "l5 y"), cand(8, "l8"), cand(12, "l12")}
	lr := newLineReader(seed)
	hf, err := verify(context.Background(), lr, strings.NewReader(body), cands, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	var kept []int
	for _, m := range hf.matches {
		kept = append(kept, m.n)
	}
	var shown []int
	for n := range hf.text {
		shown = append(shown, n)
	}
	slices.Sort(shown)
	if !slices.Equal(kept, []int{2, 8}) || !hf.dropped || !slices.Equal(shown, []int{1, 2, 3, 4, 5, 6, 7, 8}) || hf.text[5] != "l5 x" {
		t.Fatalf("kept %v, dropped %v, shown %v (line 5 %q)", kept, hf.dropped, shown, hf.text[5])
	}
	hf, err = verify(context.Background(), lr, strings.NewReader(body), cands[:1], 0, false)
	if err != nil || len(hf.matches) != 1 || hf.dropped || hf.text != nil {
		t.Fatalf("without show: %+v %v", hf, err)
	}
}

// TestRGNominatingWithheldFilesSaysNothing: a file the policy withholds by
// its name (a secret, a denied path, a secret folder on its way) that rg
// names anyway, past its exclusions, is passed over without a word: not
// shown, not counted hidden, and not taken for a file that changed, since
// any of those would tell the pattern's author that it matched. Only the
// visible file's line is answered.
func TestRGNominatingWithheldFilesSaysNothing(t *testing.T) {
	root := testfs.Workspace(t, map[string]string{
		"a.txt":                "needle\n",
		".env":                 "needle\n",
		"keys/.ssh/id":         "needle\n",
		"vendor/private/x.txt": "needle\n",
	})
	rg := fakeRG(t,
		match("a.txt", 1, "needle"),
		match(".env", 1, "needle"),
		match("keys/.ssh/id", 1, "needle"),
		match("vendor/private/x.txt", 1, "needle"),
	)
	p := newPolicy(t, root)
	for _, mode := range []string{abi.SearchContent, abi.SearchFiles, abi.SearchCount} {
		res := call(t, p, Options{RG: rg}, abi.SearchRequest{Pattern: "needle", Mode: mode})
		raw, _ := json.Marshal(res)
		if res.Error != nil || res.Changed || res.Partial || res.Hidden != 0 || len(res.Files) != 1 || res.Files[0].Path != "a.txt" {
			t.Errorf("%s: want a.txt alone and nothing said of the rest: %s", mode, raw)
		}
	}
}

package search

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

// engines are the two searches a test runs alike: rg where installed, and
// the host's own.
func engines(t *testing.T) map[string]Options {
	t.Helper()
	e := map[string]Options{"juju": noRG}
	if _, err := exec.LookPath("rg"); err == nil {
		e["ripgrep"] = Options{}
	}
	return e
}

// slowWorkspace holds files on which [\pL\pN]{300} costs Go's regexp
// tens of seconds each: lines of 998 letters, each a run of 300 letters
// many times over.
func slowWorkspace(t *testing.T) string {
	t.Helper()
	body := strings.Repeat(strings.Repeat("a", 998)+" \n", 4000) // 4 MB
	files := map[string]string{}
	for _, name := range []string{"a.txt", "b.txt", "c.txt", "d.txt"} {
		files[name] = body
	}
	return testfs.Workspace(t, files)
}

// slowPattern is accepted by both engines (rg takes it too), slow in Go's
// regexp and matches no line of slowWorkspace: the search cannot end
// early at its result cap, only at its deadline.
const slowPattern = `[\pL\pN]{300}x`

// The host's own search stops at its deadline however slow the pattern:
// it is not left to finish a file (a regexp call is bounded by matchWork),
// no file queued is begun, and the answer does not wait for the workers.
// Unbounded, these files take a minute on the 2-core build machine. The
// bound below is generous: the deadline is 1 s.
func TestNativeStopsAtItsDeadline(t *testing.T) {
	p := newPolicy(t, slowWorkspace(t))
	start := time.Now()
	res := call(t, p, noRG, abi.SearchRequest{Pattern: slowPattern, TimeoutMs: 1000})
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("a search with a 1 s deadline took %s", took)
	}
	if res.Error != nil || !res.Partial || res.Engine != "juju" {
		t.Errorf("want a partial answer of the host's search: %+v", res)
	}
}

// A call cancelled by its client (its context) stops as at a deadline.
func TestNativeStopsWhenCancelled(t *testing.T) {
	p := newPolicy(t, slowWorkspace(t))
	fns := New(p, Options{RG: noRG.RG, Timeout: 20 * time.Second})
	hdr, _ := json.Marshal(abi.SearchRequest{Pattern: slowPattern})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	start := time.Now()
	fns[0].Handle(ctx, hdr, nil)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("a search cancelled after 0.5 s took %s", took)
	}
}

// A pattern whose program is too large for Go's regexp to search in any
// reasonable time is refused, by both engines (rg refuses this one for
// the size of its automaton), naming what to change; one a little
// smaller is searched.
func TestProgramBound(t *testing.T) {
	p := newPolicy(t, testfs.Workspace(t, map[string]string{"a.txt": "one\n"}))
	for name, opts := range engines(t) {
		res := call(t, p, opts, abi.SearchRequest{Pattern: `[\pL\pN]{1000}`})
		if res.Error == nil || res.Error.Code != abi.InvalidArgument || !strings.Contains(res.Error.Message, "program") {
			t.Errorf("%s: [\\pL\\pN]{1000}: %+v, want INVALID_ARGUMENT naming its program", name, res.Error)
		}
	}
	if _, err := compilePattern(&abi.SearchRequest{Pattern: slowPattern}); err != nil {
		t.Errorf("%s: %v", slowPattern, err)
	}
}

// recordWriter keeps the size of every write the host's search makes and
// the records in them, and fails from the failAt-th write (0: never).
type recordWriter struct {
	writes  []int
	records int
	failAt  int
}

func (w *recordWriter) Write(b []byte) (int, error) {
	w.writes = append(w.writes, len(b))
	if w.failAt > 0 && len(w.writes) >= w.failAt {
		return 0, errors.New("the collector stopped")
	}
	w.records += strings.Count(string(b), "\n")
	return len(b), nil
}

// The host's own search writes a file's records in pieces of about
// writeChunk, never the file's records at once (a file of empty lines
// under a long name makes them 200 times the file's size); it writes no
// more than perFile records of a file, and stops at the first write that
// fails.
func TestNativeWritesInPieces(t *testing.T) {
	const lines = 256 << 10
	name := "d/" + strings.Repeat("p", 200) + ".txt"
	root := testfs.Workspace(t, map[string]string{name: strings.Repeat("\n", lines)})
	p := newPolicy(t, root)
	r, aerr := p.Resolve(".")
	if aerr != nil {
		t.Fatal(aerr)
	}
	pt, err := compilePattern(&abi.SearchRequest{Pattern: `^`})
	if err != nil {
		t.Fatal(err)
	}
	search := func(w *recordWriter, perFile int) error {
		n := &nominator{ctx: context.Background(), root: r.Root, pt: pt, w: w, perFile: perFile}
		var buf []byte
		info, err := r.Root.OS.Lstat(name)
		if err != nil {
			return err
		}
		return n.file(name, info, &buf)
	}

	w := &recordWriter{}
	if err := search(w, 1<<30); err != nil {
		t.Fatal(err)
	}
	if w.records != lines {
		t.Errorf("%d records, want %d", w.records, lines)
	}
	for _, n := range w.writes {
		if n > writeChunk+len(name)+64 {
			t.Fatalf("a write of %d bytes, more than a piece (%d)", n, writeChunk)
		}
	}

	w = &recordWriter{}
	if err := search(w, 2); err != nil || w.records != 2 {
		t.Errorf("perFile 2: %d records, %v", w.records, err)
	}

	w = &recordWriter{failAt: 1}
	if err := search(w, 1<<30); err == nil || len(w.writes) != 1 {
		t.Errorf("a failing writer: %d writes, %v; want 1 and the error", len(w.writes), err)
	}
}

// A file of empty lines under a long name, searched for a pattern that
// matches every line, answers with its first line at once, with either
// engine (\Q\E goes to the host's own search: rg refuses it).
func TestEveryLineMatches(t *testing.T) {
	name := strings.Repeat("p", 200) + ".txt"
	p := newPolicy(t, testfs.Workspace(t, map[string]string{name: strings.Repeat("\n", 1<<20)}))
	for engine, opts := range engines(t) {
		for _, pattern := range []string{`^`, `\Q\E`} {
			res := call(t, p, opts, abi.SearchRequest{Pattern: pattern, MaxResults: 1, TimeoutMs: 20_000})
			if res.Error != nil || res.Partial || !res.Truncated || len(res.Files) != 1 || len(res.Files[0].Matches) != 1 || res.Files[0].Matches[0].Line != 1 {
				t.Errorf("%s %q: %+v, want line 1, truncated", engine, pattern, res)
			}
		}
	}
}

// In count mode a file's count stops at MaxFileCount and the result says
// more exist, with either engine.
func TestCountStopsPerFile(t *testing.T) {
	p := newPolicy(t, testfs.Workspace(t, map[string]string{
		"many.txt": strings.Repeat("x\n", abi.MaxFileCount+5), "few.txt": "x\nx\n",
	}))
	for engine, opts := range engines(t) {
		res := call(t, p, opts, abi.SearchRequest{Pattern: "x", Mode: abi.SearchCount})
		slices.SortFunc(res.Files, func(a, b abi.SearchFile) int { return strings.Compare(a.Path, b.Path) })
		if res.Error != nil || !res.Truncated || len(res.Files) != 2 || res.Files[0].Count != 2 || res.Files[1].Count != abi.MaxFileCount {
			t.Errorf("%s: %+v, want few.txt 2, many.txt %d, truncated", engine, res, abi.MaxFileCount)
		}
	}
}

// A matching line of LongLineBytes or more is named, not returned, with
// either engine: rg is given --max-columns, so that it never holds such
// lines, and the host reads that the line is that long.
func TestLongLinesAreNamed(t *testing.T) {
	long := "needle " + strings.Repeat("x", abi.LongLineBytes)
	p := newPolicy(t, testfs.Workspace(t, map[string]string{
		"a.txt": long + "\nneedle\n",
		// A short line that reads like rg's note is a line like any other.
		"b.txt": "[Omitted long line with 1 matches]\n",
	}))
	for engine, opts := range engines(t) {
		res := call(t, p, opts, abi.SearchRequest{Pattern: "needle|Omitted"})
		slices.SortFunc(res.Files, func(a, b abi.SearchFile) int { return strings.Compare(a.Path, b.Path) })
		if res.Error != nil || res.Changed || len(res.Files) != 2 || len(res.Files[0].Matches) != 1 || res.Files[0].Matches[0].Line != 2 ||
			len(res.Files[1].Matches) != 1 || res.Files[1].Matches[0].Text != "[Omitted long line with 1 matches]" {
			t.Errorf("%s: files %+v, changed %v", engine, res.Files, res.Changed)
		}
		if len(res.LongLines) != 1 || res.LongLines[0] != (abi.SearchLine{Path: "a.txt", Line: 1}) {
			t.Errorf("%s: long lines %+v, want a.txt:1", engine, res.LongLines)
		}
	}
}

// A pattern that asserts a line's end is run with rg's --crlf, which ends
// its note in place of a long line with a carriage return: the note was
// then not known as one, the line was taken for a match the host read
// otherwise, and b$ answered "no matches" with rg where the host's own
// search named the long line.
func TestLongLinesAreNamedForALineEndPattern(t *testing.T) {
	long := strings.Repeat("a", abi.LongLineBytes) + "needle"
	p := newPolicy(t, testfs.Workspace(t, map[string]string{
		"a.txt": long + "\nneedle\n",
		"b.txt": long + "\r\nneedle\r\n",
	}))
	want := []abi.SearchLine{{Path: "a.txt", Line: 1}, {Path: "b.txt", Line: 1}}
	for engine, opts := range engines(t) {
		res := call(t, p, opts, abi.SearchRequest{Pattern: "needle$"})
		slices.SortFunc(res.LongLines, func(a, b abi.SearchLine) int { return strings.Compare(a.Path, b.Path) })
		if res.Error != nil || len(res.Files) != 2 || !slices.Equal(res.LongLines, want) {
			t.Errorf("%s: files %+v, long lines %+v, want each file's line 2 and long lines %+v", engine, res.Files, res.LongLines, want)
		}
	}
}

// Nothing inside a .git folder is searched, even a .git folder or a file
// in one named as the path: rg's --iglob=!.git applies to its walk only.
func TestNeverInsideGit(t *testing.T) {
	root := testfs.Workspace(t, map[string]string{
		".git/config":      "[remote \"origin\"]\n\turl = https://user:SECRETX@example.com/r.git\n",
		".git/description": "SECRETX\n",
		"sub/.git/HEAD":    "SECRETX\n",
		"up/.Git/HEAD":     "SECRETX\n", // .git to a disk that ignores case
		"a.txt":            "nothing\n",
	})
	p := newPolicy(t, root)
	for engine, opts := range engines(t) {
		for _, path := range []string{".git", ".git/description", "sub/.git", "sub/.git/HEAD", "./.git/../.git", "up/.Git", "up/.Git/HEAD"} {
			res := call(t, p, opts, abi.SearchRequest{Pattern: "SECRETX", Path: path})
			if res.Error == nil || res.Error.Code != abi.PathDenied || len(res.Files) != 0 {
				t.Errorf("%s %s: %+v, want PATH_DENIED", engine, path, res)
			}
		}
		res := call(t, p, opts, abi.SearchRequest{Pattern: "SECRETX", Path: ".git/config"})
		if res.Error == nil || len(res.Files) != 0 {
			t.Errorf("%s .git/config: %+v, want refused", engine, res)
		}
		if res := call(t, p, opts, abi.SearchRequest{Pattern: "SECRETX"}); res.Error != nil || len(res.Files) != 0 {
			t.Errorf("%s .: %+v, want no file", engine, res)
		}
	}
}

// A file with matches whose name is not UTF-8, which no tool can name, is
// left out unsaid by both engines, as glob_files passes over such names:
// the policy opens no such path, so the host cannot read it to confirm
// rg's word, and a count would say what its content matches.
func TestUnnamedFilesAreLeftOut(t *testing.T) {
	root := testfs.Workspace(t, map[string]string{"a.txt": "needle\n"})
	if err := os.WriteFile(filepath.Join(root, "b\xff.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Skip("no such name here:", err)
	}
	p := newPolicy(t, root)
	for engine, opts := range engines(t) {
		res := call(t, p, opts, abi.SearchRequest{Pattern: "needle"})
		if res.Error != nil || len(res.Files) != 1 || res.Files[0].Path != "a.txt" || res.Unnamed != 0 || res.Changed {
			t.Errorf("%s: %+v; want a.txt alone", engine, res)
		}
	}
}

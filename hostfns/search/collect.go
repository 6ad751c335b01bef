package search

import (
	"bytes"
	"context"
	"hash/maphash"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// collector turns rg's output into a SearchResult. rg only nominates: it
// names files, and the numbers and columns of their matching lines. The
// host opens each named file through the policy, reads it, and builds every
// line it returns from its own read, keeping only the lines it read the
// same as rg. It stops at the result cap; run names the files again in
// path order when the cap cut files named out of order.
//
// Nothing the host did not confirm changes the answer: a candidate not
// confirmed is dropped without a word (the result's Changed is no longer
// set), and the caps (Truncated) count confirmed lines and files alone.
// rg opens files by path, so a folder swapped for a link out of the roots
// while it runs has it read an outside file under a name of the root's;
// the host's own search opens a file by its path beneath the root, which
// follows a link inside the root (to .git, say). Either names the file
// only when the pattern matches what it read, so saying files changed,
// or a cap reached by lines then dropped, was one bit a search of a file
// outside the roots or withheld (TestSearchAnswerIsNoOracleOfOutsideFiles).
type collector struct {
	ctx   context.Context
	s     *server
	root  *policy.Root
	req   *abi.SearchRequest
	max   int
	base  string // the searched path, root-relative
	isDir bool
	seed  maphash.Seed // for the hashes of candidate lines
	lines *lineReader  // reads the files, with seed
	res   *abi.SearchResult

	cur     *file // the file whose candidates are arriving
	stopped bool  // the cap or the output bound was reached; rg is killed
	// capped: the answer is full and a file after it in path order
	// matches too. Files named out of path order must then be named
	// again in order (run) for the answer to be the first files.
	capped bool
	// readErr is why the last read of nominations ended early, if it did.
	readErr error
	// crlf: rg runs with --crlf, which prints a file's last line that
	// has no line break with a "\r\n" all the same.
	crlf bool
}

// file is one file of rg's output while its candidates arrive.
type file struct {
	name    string        // as rg printed it
	display string        // as the model sees it
	f       policy.Reader // opened through the policy; nil when the file is not shown
	cands   []candidate
}

// read consumes rg's output. It stops early, with c.stopped set, when the
// cap is reached or at the output bound, and without it when time runs out.
func (c *collector) read(r io.Reader) error {
	lr := &io.LimitedReader{R: r, N: c.s.opts.MaxOutput}
	err := readRecords(lr, c.line, c.longLine)
	if err == nil && lr.N <= 0 {
		c.res.Truncated = true
		c.stopped = true
	}
	return err
}

// beforeReorder, when a test sets it, runs before a cut search is run
// again in path order.
var beforeReorder func()

// reorder finishes the answer of a search cut out of path order and
// empties the collector for the same search run again in order; it
// returns the answer, which stands if the second run cannot end.
func (c *collector) reorder() *abi.SearchResult {
	c.finish(c.readErr)
	first := c.res
	c.restart()
	if beforeReorder != nil {
		beforeReorder()
	}
	return first
}

// keepFirst finishes the second, ordered run of a cut search and keeps
// the first run's answer instead when the second ran out of time: that
// one was whole under the cap, only not the first files in path order.
func (c *collector) keepFirst(first *abi.SearchResult) bool {
	if c.ctx.Err() == nil {
		return false
	}
	c.res = first
	return true
}

// restart empties the collector for the same search run again.
func (c *collector) restart() {
	if c.cur != nil && c.cur.f != nil {
		c.cur.f.Close()
	}
	c.cur, c.stopped, c.capped, c.readErr = nil, false, false, nil
	c.res = &abi.SearchResult{Engine: c.res.Engine, Files: []abi.SearchFile{}}
}

// line handles one line of rg's output. rg prints each file's lines
// together, so a new name starts a new file.
func (c *collector) line(b []byte) bool {
	name, n, col, text, ok := record(b)
	if !ok {
		return true
	}
	if c.cur == nil || c.cur.name != string(name) {
		c.flush()
		if c.stopped {
			return false
		}
		c.cur = c.admit(string(name))
	}
	if c.cur.f == nil {
		return true
	}
	if len(c.cur.cands) >= c.perFile() {
		// All the lines the answer can use; flush decides, from the
		// lines it confirms, whether the cap is reached.
		return c.ctx.Err() == nil
	}
	cand := nominate(n, text, col-1, c.content(), c.seed)
	cand.omitted = omitted(text)
	if c.crlf && bytes.HasSuffix(text, []byte("\r")) {
		// --crlf ends rg's note in place of a long line with "\r" too.
		cand.omitted = cand.omitted || omitted(text[:len(text)-1])
		cand.lastSum, cand.lastCR = maphash.Bytes(c.seed, text[:len(text)-1]), true
	}
	c.cur.cands = append(c.cur.cands, cand)
	return c.ctx.Err() == nil
}

// omitted reports whether text is rg's note in place of a matching line
// of maxColumns bytes or more ("[Omitted long line with 2 matches]"; the
// host's own search writes omittedNote). A line whose text only reads so
// is told apart when the host reads it (verify).
func omitted(text []byte) bool {
	return bytes.HasPrefix(text, []byte("[Omitted long ")) && bytes.HasSuffix(text, []byte("]"))
}

// perFile is the most matching lines the search takes from one file: in
// content mode one past the result cap, so that the collector sees that
// more exist; in files mode one; in count mode one past MaxFileCount. rg
// is given it as --max-count and the host's own search stops there too,
// so that no file's lines cost more than the answer needs.
func perFile(mode string, max int) int {
	switch mode {
	case abi.SearchFiles:
		return 1
	case abi.SearchCount:
		return abi.MaxFileCount + 1
	}
	return max + 1
}

// longLine notes a record too long to read (a matching line over
// maxEventBytes) from its first bytes: the line is named in the result,
// when the policy lets its file be shown, rather than left out unsaid.
func (c *collector) longLine(head []byte) {
	name, n, _, _, ok := record(head)
	if !ok {
		return
	}
	if c.cur == nil || c.cur.name != string(name) {
		c.flush()
		if c.stopped {
			return
		}
		c.cur = c.admit(string(name))
	}
	if c.cur.f != nil && len(c.res.LongLines) < abi.MaxLongLines {
		c.res.LongLines = append(c.res.LongLines, abi.SearchLine{Path: c.cur.display, Line: n})
	}
}

// record parses one line of rg's output, "PATH\0LINE:COLUMN:TEXT": the
// file, the line's number, the 1-based byte column of its first match and
// the line as rg read it, without its line break. ok is false for anything
// else (such as rg's note that a binary file matches).
func record(b []byte) (name []byte, n, col int, text []byte, ok bool) {
	i := bytes.IndexByte(b, 0)
	if i <= 0 {
		return nil, 0, 0, nil, false
	}
	name, rest := b[:i], b[i+1:]
	if n, rest, ok = number(rest); !ok {
		return nil, 0, 0, nil, false
	}
	if col, rest, ok = number(rest); !ok {
		return nil, 0, 0, nil, false
	}
	return name, n, col, rest, true
}

// number parses "DIGITS:" at the start of b.
func number(b []byte) (int, []byte, bool) {
	i := bytes.IndexByte(b, ':')
	if i <= 0 {
		return 0, nil, false
	}
	n, err := strconv.Atoi(string(b[:i]))
	if err != nil || n < 1 {
		return 0, nil, false
	}
	return n, b[i+1:], true
}

// finish adds the last file once the nominations have ended, readErr
// being why they did: a search that ran out of time is partial, one whose
// output could not be read whole is truncated.
func (c *collector) finish(readErr error) {
	c.flush()
	c.trim()
	if c.res.Truncated && len(c.res.Files) > 0 {
		// Long lines of files past the cut came from files read before
		// the answer was full, in whatever order they were named.
		last := c.last()
		c.res.LongLines = slices.DeleteFunc(c.res.LongLines, func(l abi.SearchLine) bool { return comparePaths(l.Path, last) > 0 })
	}
	switch {
	case c.ctx.Err() != nil && !c.stopped:
		c.res.Partial = true
	case readErr != nil:
		c.res.Truncated = true
	}
	c.order()
}

// order puts the files of the answer in path order, and the long lines
// in path and line order. rg's threads, and the host's own search, name
// files in the order they finish them: the same search answered its files
// in a different order each time, and rg and the host's search answered
// it differently (TestSearchAnswersInPathOrder).
func (c *collector) order() {
	slices.SortStableFunc(c.res.Files, func(a, b abi.SearchFile) int { return comparePaths(a.Path, b.Path) })
	slices.SortStableFunc(c.res.LongLines, func(a, b abi.SearchLine) int {
		if n := comparePaths(a.Path, b.Path); n != 0 {
			return n
		}
		return a.Line - b.Line
	})
}

// content reports whether the request shows lines (content mode).
func (c *collector) content() bool {
	return c.req.Mode == abi.SearchContent || c.req.Mode == ""
}

// nominate makes a candidate of a line rg reports as matching from byte
// start. With column, it counts the code points shown before the match,
// where a run of invalid bytes is one U+FFFD.
func nominate(n int, line []byte, start int, column bool, seed maphash.Seed) candidate {
	c := candidate{n: n, size: len(line), sum: maphash.Bytes(seed, line), column: 1}
	if column && start >= 0 && start <= len(line) {
		c.start = start
		if before := line[:start]; utf8.Valid(before) {
			c.column += utf8.RuneCount(before)
		} else {
			c.column += utf8.RuneCountInString(strings.ToValidUTF8(string(before), "\uFFFD"))
		}
	}
	return c
}

// flush reads the current file through the policy's handle, keeps the
// candidates whose line the host read the same, and adds the file to the
// result with the host's lines.
func (c *collector) flush() {
	f := c.cur
	c.cur = nil
	if f == nil || f.f == nil {
		return
	}
	defer f.f.Close()
	slices.SortFunc(f.cands, func(a, b candidate) int { return a.n - b.n })
	f.cands = slices.CompactFunc(f.cands, func(a, b candidate) bool { return a.n == b.n })
	hf, err := verify(c.ctx, c.lines, f.f, f.cands, c.req.ContextLines, c.content())
	if err != nil {
		if c.ctx.Err() == nil {
			c.s.log.Warn("search: reading a file rg reported failed", "path", f.display, "err", err)
		}
		return
	}
	for _, n := range hf.long {
		if len(c.res.LongLines) < abi.MaxLongLines {
			c.res.LongLines = append(c.res.LongLines, abi.SearchLine{Path: f.display, Line: n})
		}
	}
	if len(hf.matches) == 0 {
		return
	}
	// The caps, on confirmed lines and files alone. The answer under a
	// cap is the first files in path order, whatever order rg's threads
	// (or the host's own search) named them in: a file that sorts after
	// a full answer only tells that more matches exist.
	if c.full() {
		// More matches exist. Named in path order, nothing later can
		// come first; named out of order, the search is run again in
		// order (run). Either way this is where it stops.
		c.res.Truncated, c.stopped, c.capped = true, true, true
		return
	}
	if c.req.Mode == abi.SearchCount && len(hf.matches) > abi.MaxFileCount {
		hf.matches = hf.matches[:abi.MaxFileCount]
		c.res.Truncated = true // the file holds more: its count stops here
	}
	out := abi.SearchFile{Path: f.display}
	switch c.req.Mode {
	case abi.SearchFiles:
	case abi.SearchCount:
		out.Count = len(hf.matches)
		c.res.Matches += out.Count
	default:
		out.Matches = hf.show(c.req.ContextLines)
		c.res.Matches += len(out.Matches)
	}
	i, _ := slices.BinarySearchFunc(c.res.Files, out.Path, func(a abi.SearchFile, p string) int { return comparePaths(a.Path, p) })
	c.res.Files = slices.Insert(c.res.Files, i, out)
	c.cut()
}

// shown is how much of the answer a file takes against the cap: its
// lines in content mode, else the file itself.
func (c *collector) shown(f abi.SearchFile) int {
	if c.content() {
		return len(f.Matches)
	}
	return 1
}

// used is how much of the cap the answer takes.
func (c *collector) used() int {
	if c.content() {
		return c.res.Matches
	}
	return len(c.res.Files)
}

// full reports whether the answer holds as much as the cap lets it.
func (c *collector) full() bool {
	return len(c.res.Files) > 0 && c.used() >= c.max
}

// last is the path of the answer's last file in path order.
func (c *collector) last() string {
	return c.res.Files[len(c.res.Files)-1].Path
}

// cut leaves out the last files in path order while the files before them
// fill the cap alone: more matches exist than the answer holds.
func (c *collector) cut() {
	for len(c.res.Files) > 1 && c.used()-c.shown(c.res.Files[len(c.res.Files)-1]) >= c.max {
		c.drop()
	}
	if !c.content() && len(c.res.Files) > c.max {
		c.drop()
	}
}

// drop leaves the answer's last file out.
func (c *collector) drop() {
	f := c.res.Files[len(c.res.Files)-1]
	c.res.Files = c.res.Files[:len(c.res.Files)-1]
	c.res.Matches -= f.Count + len(f.Matches)
	c.res.Truncated = true
}

// trim cuts the last file's lines to the cap, once every file is in.
func (c *collector) trim() {
	if !c.content() || c.res.Matches <= c.max {
		return
	}
	last := &c.res.Files[len(c.res.Files)-1]
	keep := len(last.Matches) - (c.res.Matches - c.max)
	last.Matches = last.Matches[:keep]
	c.res.Matches = c.max
	c.res.Truncated = true
}

// perFile is the most candidates one file may hold: as many as the
// search takes from a file (perFile), at most one past the result cap.
func (c *collector) perFile() int {
	return perFile(c.req.Mode, c.max)
}

// admit decides whether a file rg names may be shown: the file glob (a
// glob with a slash, matched here), then the policy, which has the last
// word and opens the file the host will read. A file the policy refuses,
// by its name or as a multiply-linked private key, is passed over without
// a word, and so is a name that is not UTF-8 or a path longer or deeper
// than the policy resolves (no tool can name it, and the policy opens no
// such path): rg names such a file only when the
// pattern matches its content, so any count of them would tell the
// pattern's author what the file holds. So is a file that no longer
// resolves to itself (removed, or a folder above it swapped for a link):
// see collector. The file returned has no handle when it is not to be
// shown.
func (c *collector) admit(name string) *file {
	skip := &file{name: name}
	rel := path.Clean(strings.TrimPrefix(name, "./"))
	if g, exclude := splitGlob(c.req.Glob); g != "" && !nameGlob(g) && c.globMatch(g, rel) == exclude {
		return skip
	}
	if inGit(rel) || !utf8.ValidString(rel) || c.s.pol.Check(c.root, rel) != nil {
		return skip
	}
	display := c.s.pol.Display(c.root, rel)
	if policy.Validate(display) != nil {
		// Longer or deeper than any path the policy resolves (more than
		// 256 names, say): no tool can name the file, so its word would
		// only be a trace of its content.
		return skip
	}
	if r, f, _, ok := c.s.pol.ResolveRegular(display); ok {
		if r.Root == c.root && r.Rel == rel {
			return &file{name: name, display: display, f: f}
		}
		f.Close()
		return skip
	}
	r, aerr := c.s.pol.Resolve(display)
	if aerr != nil || r.Root != c.root || r.Rel != rel || !r.Info.Mode().IsRegular() {
		return skip
	}
	f, _, aerr := c.s.pol.OpenRead(r)
	if aerr != nil {
		return skip
	}
	return &file{name: name, display: display, f: f}
}

// inGit reports whether rel is .git or inside a .git folder (any letter
// case: on a case-insensitive disk .GIT is the same folder).
func inGit(rel string) bool {
	for el := range strings.SplitSeq(rel, "/") {
		if strings.EqualFold(el, ".git") {
			return true
		}
	}
	return false
}

// globMatch matches a glob with a slash against rel taken relative to the
// searched folder.
func (c *collector) globMatch(g, rel string) bool {
	sub := rel
	if c.isDir && c.base != "." {
		var ok bool
		if sub, ok = strings.CutPrefix(rel, c.base+"/"); !ok {
			return false
		}
	}
	ok, _ := doublestar.Match(strings.TrimPrefix(g, "./"), sub)
	return ok
}

// comparePaths orders paths as ripgrep's --sort path walks them: name by
// name, so that a folder's files come before a sibling whose name
// extends the folder's ("a/b" before "a.txt").
func comparePaths(a, b string) int {
	for a != "" && b != "" {
		x, ra, _ := strings.Cut(a, "/")
		y, rb, _ := strings.Cut(b, "/")
		if n := strings.Compare(x, y); n != 0 {
			return n
		}
		a, b = ra, rb
	}
	return strings.Compare(a, b)
}

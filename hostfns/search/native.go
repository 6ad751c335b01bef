package search

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"math"
	"regexp"
	"regexp/syntax"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/jujutools/juju/hostfns/fs"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// The search without ripgrep. Where the host has no rg, it does rg's part
// itself: it names the files and the lines that match, written as rg
// writes them (PATH\0LINE:COLUMN:TEXT), and the collector checks each of
// them exactly as it checks rg's, reading the file again through the
// policy. The files come from the walk the glob host function does
// (fs.Scan: folders opened from their parent, .gitignore respected, secret
// and denied names withheld, symlinks neither followed nor reported); a
// few goroutines read them and match them with Go's regexp, whose RE2
// dialect is rg's but for \w, \d and \b, which are ASCII here.

// Bounds of the native search.
const (
	nativeWholeFile = 16 << 20 // a larger file is read line by line, without the whole-file test
	nativeMaxDepth  = 4096     // folders below the searched one; rg has no bound either
	nativeMaxFiles  = 10_000_000

	// maxProgram bounds a pattern's compiled program, counted as its
	// instructions with a character class counted as its ranges. Go's
	// regexp costs up to the program's size for each byte it reads, so a
	// larger program would search a workspace for minutes. rg refuses
	// [\pL\pN]{1000} (748,002 here) for the size of its automaton and takes
	// [\pL\pN]{300} (224,402); the figure draws the same line. An
	// alternation of a thousand identifiers is about 7,000.
	maxProgram = 250_000

	// matchWork bounds the work of one call into Go's regexp, which
	// cannot be stopped once it runs: bytes times the program's
	// instructions. The slowest rate measured is about 150 ns per byte
	// and instruction (a Unicode class repeated, on the shared 2-core
	// machine), so a call ends within about 150 ms and the search sees
	// its deadline, a cancellation or a stopped collector that soon.
	matchWork = 1 << 20

	// writeChunk is about how much of a file's records the search holds
	// before it writes them to the collector: a file of millions of
	// matching lines costs this much memory, not its records' size.
	writeChunk = 64 << 10
)

// errProgram is compilePattern's error for a pattern whose program is
// larger than maxProgram.
type errProgram struct{ size int }

func (e *errProgram) Error() string {
	return fmt.Sprintf("the pattern compiles to a program of %d steps, more than the %d the search takes", e.size, maxProgram)
}

// patterns are a search's pattern compiled for the native search.
type patterns struct {
	// first tests a file's first line, rest the others: \A matches at the
	// start of the first line only, as with rg (which reports no other);
	// ^ and $ match at every line's start and end.
	first, rest *regexp.Regexp
	// whole tests a whole file at once, ^ and $ matching at each line, so
	// that a file without a match is passed over in one call. It is nil
	// when it could miss a line (a pattern asserting the start or the end
	// of the text), and then every line is tested.
	whole *regexp.Regexp
	// needles are texts one of which every match holds, when the pattern
	// has such (package main|//go:generate has these two): a file that
	// holds none is passed over with a few bytes.Contains calls, which
	// scan far faster than a regexp without a literal prefix.
	needles [][]byte
	// block is the most bytes one regexp call reads (matchWork over the
	// program's instructions): a file is tested whole in blocks of lines
	// of about this size, and a longer line is read through a reader
	// that checks the deadline every block runes.
	block int
	// crlf: a \r before a line's \n is left out of what the pattern
	// reads, as rg's --crlf does (see crlf).
	crlf bool
	// firstBytes and restBytes are first and rest for a line that is not
	// UTF-8, read through ctxRunes with invalid set: "." and (?s). match
	// only characters, as in rg, so a byte that is not UTF-8 is matched
	// by no part of a pattern (Go reads it as U+FFFD, which ., \S or
	// [^a] match; rg matches it with none of them).
	firstBytes, restBytes *regexp.Regexp
}

// compilePattern compiles req's pattern as rg reads it: literal or a
// regular expression, case-insensitive on request.
func compilePattern(req *abi.SearchRequest) (*patterns, error) {
	p := req.Pattern
	if req.Literal {
		p = regexp.QuoteMeta(p)
	}
	if req.IgnoreCase {
		p = "(?i)" + p
	}
	first, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	// Parsed with ^ and $ as line anchors, \A and \z stay text anchors.
	t, err := syntax.Parse(p, syntax.Perl&^syntax.OneLine)
	if err != nil {
		return nil, err
	}
	prog, err := syntax.Compile(t.Simplify())
	if err != nil {
		return nil, err
	}
	size := 0
	for _, in := range prog.Inst {
		size++
		if in.Op == syntax.InstRune {
			size += len(in.Rune) / 2
		}
	}
	if size > maxProgram {
		return nil, &errProgram{size: size}
	}
	pt := &patterns{first: first, rest: first, block: max(1, matchWork/len(prog.Inst))}
	if _, complete := first.LiteralPrefix(); complete {
		pt.block = math.MaxInt // a text alone is found at memory's speed
	}
	if lits, ok := needles(t.Simplify()); ok && len(lits) <= maxNeedles && slices.IndexFunc(lits, func(l []byte) bool { return len(l) < minNeedle }) < 0 {
		pt.needles = lits
	}
	pt.crlf = crlf(req)
	if err := pt.compileBytes(p); err != nil {
		return nil, err
	}
	if !anchorsText(t) {
		if !pt.crlf { // (?m)$ does not match before \r\n
			pt.whole, _ = regexp.Compile("(?m)" + p)
		}
		return pt, nil
	}
	if rest, err := regexp.Compile(noTextStart(t).String()); err == nil {
		pt.rest = rest
	}
	return pt, nil
}

// compileBytes compiles p's firstBytes and restBytes: p with every "any
// character" made a class of the characters it matches.
func (pt *patterns) compileBytes(p string) error {
	t, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return err
	}
	if pt.firstBytes, err = regexp.Compile(onlyChars(t).String()); err != nil {
		return err
	}
	pt.restBytes = pt.firstBytes
	if lines, err := syntax.Parse(p, syntax.Perl&^syntax.OneLine); err == nil && anchorsText(lines) {
		if rest, err := regexp.Compile(onlyChars(noTextStart(lines)).String()); err == nil {
			pt.restBytes = rest
		}
	}
	return nil
}

// onlyChars returns re with "." and (?s). as classes of characters, which
// the rune ctxRunes gives for a byte that is not UTF-8 (notUTF8) is not.
// The classes end at U+10FFFE: Go compiles a class of every character
// back into "any rune", which matches notUTF8 too, so they leave out the
// last code point, a noncharacter, which a line not UTF-8 hardly holds.
func onlyChars(re *syntax.Regexp) *syntax.Regexp {
	cp := *re
	switch re.Op {
	case syntax.OpAnyCharNotNL:
		cp = syntax.Regexp{Op: syntax.OpCharClass, Flags: re.Flags, Rune: []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune - 1}}
	case syntax.OpAnyChar:
		cp = syntax.Regexp{Op: syntax.OpCharClass, Flags: re.Flags, Rune: []rune{0, unicode.MaxRune - 1}}
	}
	cp.Sub = make([]*syntax.Regexp, len(re.Sub))
	for i, sub := range re.Sub {
		cp.Sub[i] = onlyChars(sub)
	}
	return &cp
}

// notUTF8 is the rune ctxRunes gives, with invalid set, for a byte that is
// not UTF-8: past the last character, so no class matches it, and not
// negative, which Go's regexp takes for the end of the text ($ would
// match before it).
const notUTF8 = unicode.MaxRune + 1

// Bounds of patterns.needles: more texts, or shorter ones, would cost more
// than they save.
const (
	maxNeedles = 8
	minNeedle  = 3
)

// needles returns texts one of which every match of re holds; ok is false
// when it cannot name such (a pattern that can match without a literal
// text, or one folding case). The texts a match starts with are preferred
// when they are longer: Go's parser factors //go:(generate|build) out of
// an alternation, and the whole prefixes pass over more files than its
// parts.
func needles(re *syntax.Regexp) ([][]byte, bool) {
	held, ok := contained(re)
	if pre, _ := prefixes(re); pre != nil && (!ok || shortest(pre) > shortest(held)) {
		return pre, true
	}
	return held, ok
}

// prefixes returns texts one of which every match of re starts with (nil
// when it cannot name any); whole says each is a whole match.
func prefixes(re *syntax.Regexp) (pre [][]byte, whole bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		return [][]byte{[]byte(string(re.Rune))}, true
	case syntax.OpCapture:
		return prefixes(re.Sub[0])
	case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
		return [][]byte{nil}, true // matches no text
	case syntax.OpAlternate:
		whole = true
		for _, sub := range re.Sub {
			p, w := prefixes(sub)
			if p == nil || len(pre)+len(p) > maxNeedles {
				return nil, false
			}
			pre, whole = append(pre, p...), whole && w
		}
		return pre, whole
	case syntax.OpConcat:
		pre = [][]byte{nil}
		for _, sub := range re.Sub {
			p, w := prefixes(sub)
			if p == nil || len(pre)*len(p) > maxNeedles {
				break
			}
			var next [][]byte
			for _, a := range pre {
				for _, b := range p {
					next = append(next, append(slices.Clip(a), b...))
				}
			}
			if pre = next; !w {
				return pre, false
			}
		}
		if shortest(pre) == 0 {
			return nil, false
		}
		return pre, false
	}
	return nil, false
}

// contained returns texts one of which every match of re holds somewhere.
func contained(re *syntax.Regexp) (lits [][]byte, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		return [][]byte{[]byte(string(re.Rune))}, true
	case syntax.OpCapture, syntax.OpPlus:
		return contained(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return contained(re.Sub[0])
		}
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			l, ok := contained(sub)
			if !ok {
				return nil, false
			}
			lits = append(lits, l...)
		}
		return lits, true
	case syntax.OpConcat:
		// Each part's texts would do; the part whose shortest is longest
		// passes over the most files.
		best := -1
		for _, sub := range re.Sub {
			if l, ok := contained(sub); ok && shortest(l) > best {
				lits, best = l, shortest(l)
			}
		}
		return lits, best >= 0
	}
	return nil, false
}

// shortest is the length of the shortest of lits.
func shortest(lits [][]byte) int {
	n := -1
	for _, l := range lits {
		if n < 0 || len(l) < n {
			n = len(l)
		}
	}
	return n
}

// anchorsText reports whether re asserts the start or the end of the
// whole text (\A, \z) rather than of a line.
func anchorsText(re *syntax.Regexp) bool {
	if re.Op == syntax.OpBeginText || re.Op == syntax.OpEndText {
		return true
	}
	return slices.ContainsFunc(re.Sub, anchorsText)
}

// noTextStart is re with every \A made to match nothing: the pattern of a
// line after the first.
func noTextStart(re *syntax.Regexp) *syntax.Regexp {
	if re.Op == syntax.OpBeginText {
		return &syntax.Regexp{Op: syntax.OpNoMatch}
	}
	cp := *re
	cp.Sub = make([]*syntax.Regexp, len(re.Sub))
	for i, sub := range re.Sub {
		cp.Sub[i] = noTextStart(sub)
	}
	return &cp
}

// nominate walks r (a folder, or one file) and writes to w every line of
// every file that the pattern matches, each file's lines together and at
// most perFile of them, until the walk ends, ctx ends or w fails (the
// collector stopped reading). Once ctx ends, no file is begun and the one
// being searched is left within a regexp call (matchWork).
func (s *server) nominate(ctx context.Context, req *abi.SearchRequest, r *policy.Resolved, pt *patterns, w io.Writer, perFile int, sorted bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := &nominator{ctx: ctx, root: r.Root, pt: pt, w: w, perFile: perFile}
	if !r.Info.IsDir() {
		// A file named is searched whatever its name, as rg does.
		var buf []byte
		return n.file(r.Rel, r.Info, &buf)
	}
	files := make(chan listed, 256)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	workers := max(2, runtime.GOMAXPROCS(0))
	var inOrder []listed // sorted: the walk's files, searched in path order by one goroutine
	if sorted {
		workers = 1
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for f := range files {
				if ctx.Err() != nil {
					continue // the files queued are passed over
				}
				if err := n.file(f.rel, f.info, &buf); err != nil {
					select {
					case errs <- err:
					default:
					}
					cancel()
				}
			}
		}()
	}
	name, exclude := splitGlob(req.Glob)
	if !nameGlob(name) {
		name = ""
	}
	fs.Scan(ctx, s.pol, r.Display, fs.ScanOptions{MaxDepth: nativeMaxDepth, MaxFiles: nativeMaxFiles, SkipGlobs: req.SkipDirs}, func(f fs.ScanFile) {
		if name != "" {
			if ok, _ := doublestar.Match(name, f.Name); ok == exclude {
				return
			}
		}
		if sorted {
			inOrder = append(inOrder, listed{f.Rel, f.Info})
			return
		}
		select {
		case files <- listed{f.Rel, f.Info}:
		case <-ctx.Done():
		}
	})
	slices.SortFunc(inOrder, func(a, b listed) int { return comparePaths(a.rel, b.rel) })
	for _, f := range inOrder {
		select {
		case files <- f:
		case <-ctx.Done():
		}
	}
	close(files)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return ctx.Err()
	}
}

// listed is a file the walk met: its root-relative path and its lstat.
type listed struct {
	rel  string
	info iofs.FileInfo
}

// beforeOpen, when a test sets it, runs between the walk's listing of a
// file and the search's open of it: the moment a swapped folder would
// slip through.
var beforeOpen func(rel string)

// nominator searches files for nominate; its methods are safe for
// concurrent use.
type nominator struct {
	ctx     context.Context
	root    *policy.Root
	pt      *patterns
	perFile int // the most records written for one file

	mu sync.Mutex // held by the file whose records are being written
	w  io.Writer
}

// keepBuffer is the largest read buffer a worker keeps between files.
const keepBuffer = 1 << 20

// file searches the root-relative file rel, reading it into *buf, and
// writes its matching lines. It fails when writing fails or ctx ended: a
// file that cannot be read is skipped, as rg skips it, and so is one that
// is no longer the regular file want the walk listed. The open follows no
// symlink on the way and does not block: a folder swapped since the walk
// for a link to .git, or a FIFO swapped in, is skipped, never read.
func (n *nominator) file(rel string, want iofs.FileInfo, buf *[]byte) error {
	if beforeOpen != nil {
		beforeOpen(rel)
	}
	f, err := n.root.OpenListed(rel, want)
	if err != nil {
		return nil
	}
	defer f.Close()
	br := decode(bufio.NewReaderSize(f, 32<<10))
	rec := &records{n: n, rel: rel}
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() <= nativeWholeFile {
		// Bounded: a file that grows while it is read is searched as far
		// as twice the size it had (UTF-16 decodes to up to 1.5 times).
		data, err := readAll(io.LimitReader(br, 2*nativeWholeFile), (*buf)[:0])
		if cap(data) <= keepBuffer {
			*buf = data[:0]
		}
		if err != nil {
			return nil
		}
		n.match(rec, data)
	} else if err == nil && info.Mode().IsRegular() {
		n.stream(rec, br)
	}
	if err := rec.end(); err != nil {
		return err
	}
	return n.ctx.Err()
}

// readAll reads r to its end into buf.
func readAll(r io.Reader, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		k, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// match writes the records of data's matching lines. A file holding a
// NUL byte is binary, and skipped as rg skips it. data is tested in
// blocks of whole lines of about pt.block bytes, one regexp call each,
// and ctx is checked between them.
func (n *nominator) match(rec *records, data []byte) {
	if bytes.IndexByte(data, 0) >= 0 {
		return
	}
	if n.pt.needles != nil && !slices.ContainsFunc(n.pt.needles, func(l []byte) bool { return bytes.Contains(data, l) }) {
		return
	}
	for num := 1; len(data) > 0; {
		if n.ctx.Err() != nil {
			return
		}
		cut := len(data)
		if cut > n.pt.block {
			// The lines within a block, or the first line alone when it
			// is longer.
			if cut = bytes.LastIndexByte(data[:n.pt.block], '\n') + 1; cut == 0 {
				if cut = bytes.IndexByte(data, '\n') + 1; cut == 0 {
					cut = len(data)
				}
			}
		}
		block := data[:cut]
		data = data[cut:]
		if n.pt.whole != nil && len(block) <= n.pt.block && !n.pt.whole.Match(block) {
			num += bytes.Count(block, []byte("\n"))
			continue
		}
		for len(block) > 0 {
			ln := block
			if i := bytes.IndexByte(block, '\n'); i >= 0 {
				ln, block = block[:i], block[i+1:]
			} else {
				block = nil
			}
			if !n.line(rec, num, ln) {
				return
			}
			num++
		}
	}
}

// stream is match for a file too large to read whole: line by line, a
// line longer than the collector reads (maxEventBytes) is left out. A NUL
// byte ends the file, as binary: its earlier lines may have been written,
// as rg may print them.
func (n *nominator) stream(rec *records, br *bufio.Reader) {
	var long []byte
	for num := 1; ; num++ {
		if num%1024 == 0 && n.ctx.Err() != nil {
			return
		}
		chunk, err := br.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(long) <= maxEventBytes {
				long = append(long, chunk...)
			}
			if n.ctx.Err() != nil {
				return
			}
			chunk, err = br.ReadSlice('\n')
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return
		}
		ln := chunk
		if len(long) > 0 {
			ln, long = append(long, chunk...), long[:0]
		}
		if len(ln) == 0 { // the end: no line is left
			return
		}
		ln = bytes.TrimSuffix(ln, []byte("\n"))
		if bytes.IndexByte(ln, 0) >= 0 {
			return // binary
		}
		if len(ln) <= maxEventBytes && !n.line(rec, num, ln) || err != nil {
			return
		}
	}
}

// line writes the record of line num, text ln, when the pattern matches
// it. It returns false once the file is done: its records are all
// written (perFile), writing failed, or ctx ended.
func (n *nominator) line(rec *records, num int, ln []byte) bool {
	re := n.pt.rest
	if num == 1 {
		re = n.pt.first
	}
	m := ln
	if n.pt.crlf && len(m) > 0 && m[len(m)-1] == '\r' {
		m = m[:len(m)-1]
	}
	var at []int
	if !utf8.Valid(m) {
		// A byte that is not UTF-8 is matched by no part of the
		// pattern, as in rg (patterns.firstBytes).
		re = n.pt.restBytes
		if num == 1 {
			re = n.pt.firstBytes
		}
		at = re.FindReaderIndex(&ctxRunes{ctx: n.ctx, b: m, every: n.pt.block, invalid: true})
		if n.ctx.Err() != nil {
			return false
		}
	} else if len(m) <= n.pt.block {
		at = re.FindIndex(m)
	} else {
		// One call over a line this long could run past the deadline.
		at = re.FindReaderIndex(&ctxRunes{ctx: n.ctx, b: m, every: n.pt.block})
		if n.ctx.Err() != nil {
			return false // the line was cut short: no answer about it
		}
	}
	if at == nil {
		return true
	}
	return rec.add(num, at[0]+1, ln)
}

// ctxRunes reads b's runes for a regexp, as Go's regexp reads a []byte
// (a byte that is not UTF-8 is one RuneError of width 1), and ends early,
// as if b ended, once ctx has ended: it checks every so many runes.
type ctxRunes struct {
	ctx   context.Context
	b     []byte
	every int
	n     int
	// invalid: a byte that is not UTF-8 is read as notUTF8, which no
	// class matches, instead of RuneError.
	invalid bool
}

func (r *ctxRunes) ReadRune() (rune, int, error) {
	if r.n++; r.n%r.every == 0 && r.ctx.Err() != nil || len(r.b) == 0 {
		return 0, 0, io.EOF
	}
	c, size := rune(r.b[0]), 1
	if c >= utf8.RuneSelf {
		c, size = utf8.DecodeRune(r.b)
		if r.invalid && c == utf8.RuneError && size == 1 {
			c = notUTF8
		}
	}
	r.b = r.b[size:]
	return c, size, nil
}

// records writes one file's records, PATH\0LINE:COLUMN:TEXT, as rg does:
// in pieces of about writeChunk bytes, every piece of the file together
// (the collector takes a new name for a new file, so the file holds the
// writer from its first piece to its last), at most perFile of them. A
// line of maxColumns bytes or more is written as rg's note that it was
// omitted, as rg writes it with --max-columns.
type records struct {
	n      *nominator
	rel    string
	out    []byte
	count  int
	locked bool
	err    error
}

// omittedNote is what the host's search writes for a matching line too
// long to return (rg writes "[Omitted long line with N matches]").
const omittedNote = "[Omitted long matching line]"

// add writes the record of line num, its first match at byte column col.
// It returns false once the file is done: perFile records were written,
// or writing failed.
func (rec *records) add(num, col int, ln []byte) bool {
	if len(ln) >= maxColumns {
		ln = []byte(omittedNote)
	}
	rec.out = append(rec.out, rec.rel...)
	rec.out = append(rec.out, 0)
	rec.out = strconv.AppendInt(rec.out, int64(num), 10)
	rec.out = append(rec.out, ':')
	rec.out = strconv.AppendInt(rec.out, int64(col), 10)
	rec.out = append(rec.out, ':')
	rec.out = append(rec.out, ln...)
	rec.out = append(rec.out, '\n')
	rec.count++
	if len(rec.out) >= writeChunk {
		rec.write()
	}
	return rec.err == nil && rec.count < rec.n.perFile
}

// write writes the records held, taking the writer for the file first.
func (rec *records) write() {
	if len(rec.out) == 0 || rec.err != nil {
		return
	}
	if !rec.locked {
		rec.n.mu.Lock()
		rec.locked = true
	}
	_, rec.err = rec.n.w.Write(rec.out)
	rec.out = rec.out[:0]
}

// end writes what is left of the file's records and lets go of the writer.
func (rec *records) end() error {
	rec.write()
	if rec.locked {
		rec.n.mu.Unlock()
	}
	return rec.err
}

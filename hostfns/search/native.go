package search

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"regexp"
	"regexp/syntax"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"syscall"

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
)

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
	pt := &patterns{first: first, rest: first}
	// Parsed with ^ and $ as line anchors, \A and \z stay text anchors.
	t, err := syntax.Parse(p, syntax.Perl&^syntax.OneLine)
	if err != nil {
		return pt, nil
	}
	if lits, ok := needles(t.Simplify()); ok && len(lits) <= maxNeedles && slices.IndexFunc(lits, func(l []byte) bool { return len(l) < minNeedle }) < 0 {
		pt.needles = lits
	}
	if !anchorsText(t) {
		pt.whole, _ = regexp.Compile("(?m)" + p)
		return pt, nil
	}
	if rest, err := regexp.Compile(noTextStart(t).String()); err == nil {
		pt.rest = rest
	}
	return pt, nil
}

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
// every file that the pattern matches, each file's lines together, until
// the walk ends, ctx ends or w fails (the collector stopped reading).
func (s *server) nominate(ctx context.Context, req *abi.SearchRequest, r *policy.Resolved, pt *patterns, w io.Writer) error {
	n := &nominator{root: r.Root, pt: pt, w: w, filesOnly: req.Mode == abi.SearchFiles}
	if !r.Info.IsDir() {
		// A file named is searched whatever its name, as rg does.
		var buf []byte
		return n.file(r.Rel, &buf)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	files := make(chan string, 256)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range max(2, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for rel := range files {
				if err := n.file(rel, &buf); err != nil {
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
		select {
		case files <- f.Rel:
		case <-ctx.Done():
		}
	})
	close(files)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return ctx.Err()
	}
}

// nominator searches files for nominate; its methods are safe for
// concurrent use.
type nominator struct {
	root      *policy.Root
	pt        *patterns
	filesOnly bool // one line per file is enough

	mu sync.Mutex // serializes writes to w
	w  io.Writer
}

// keepBuffer is the largest read buffer a worker keeps between files.
const keepBuffer = 1 << 20

// file searches the root-relative file rel, reading it into *buf, and
// writes its matching lines. It fails only when writing fails: a file
// that cannot be read is skipped, as rg skips it.
func (n *nominator) file(rel string, buf *[]byte) error {
	// O_NONBLOCK: a FIFO swapped in after the walk must not block the open.
	f, err := n.root.OS.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	br := decode(bufio.NewReaderSize(f, 32<<10))
	var out []byte
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
		out = n.match(rel, data)
	} else if err == nil && info.Mode().IsRegular() {
		out = n.stream(rel, br)
	}
	if len(out) == 0 {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	_, err = n.w.Write(out)
	return err
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

// match returns the records of data's matching lines. A file holding a
// NUL byte is binary, and skipped as rg skips it.
func (n *nominator) match(rel string, data []byte) []byte {
	if bytes.IndexByte(data, 0) >= 0 {
		return nil
	}
	if n.pt.needles != nil && !slices.ContainsFunc(n.pt.needles, func(l []byte) bool { return bytes.Contains(data, l) }) {
		return nil
	}
	if n.pt.whole != nil && !n.pt.whole.Match(data) {
		return nil
	}
	var out []byte
	for num := 1; len(data) > 0; num++ {
		ln := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			ln, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if out = n.record(out, rel, num, ln); n.filesOnly && len(out) > 0 {
			break
		}
	}
	return out
}

// stream is match for a file too large to read whole: line by line, a
// line longer than the collector reads (maxEventBytes) is left out.
func (n *nominator) stream(rel string, br *bufio.Reader) []byte {
	var out, long []byte
	for num := 1; ; num++ {
		chunk, err := br.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(long) <= maxEventBytes {
				long = append(long, chunk...)
			}
			chunk, err = br.ReadSlice('\n')
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return out
		}
		ln := chunk
		if len(long) > 0 {
			ln, long = append(long, chunk...), long[:0]
		}
		if len(ln) == 0 { // the end: no line is left
			return out
		}
		ln = bytes.TrimSuffix(ln, []byte("\n"))
		if bytes.IndexByte(ln, 0) >= 0 {
			return nil // binary
		}
		if out = n.record(out, rel, num, ln); n.filesOnly && len(out) > 0 {
			return out
		}
		if err != nil {
			return out
		}
	}
}

// record appends rel's record of line num, text ln, when the pattern
// matches it: PATH\0LINE:COLUMN:TEXT, the column of the first match in
// bytes from 1.
func (n *nominator) record(out []byte, rel string, num int, ln []byte) []byte {
	re := n.pt.rest
	if num == 1 {
		re = n.pt.first
	}
	at := re.FindIndex(ln)
	if at == nil {
		return out
	}
	out = append(out, rel...)
	out = append(out, 0)
	out = strconv.AppendInt(out, int64(num), 10)
	out = append(out, ':')
	out = strconv.AppendInt(out, int64(at[0]+1), 10)
	out = append(out, ':')
	out = append(out, ln...)
	return append(out, '\n')
}

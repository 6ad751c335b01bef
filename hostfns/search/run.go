package search

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"hash/maphash"
	"io"
	"os/exec"
	"regexp/syntax"
	"strings"
	"syscall"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/proc"
	"github.com/jujutools/juju/sdk/abi"
)

// maxEventBytes bounds one line of rg's output; a longer one (a match in a
// multi-megabyte line) is skipped.
const maxEventBytes = 4 << 20

// run runs rg for req over the resolved path r and collects what it reports.
func (s *server) run(ctx context.Context, req *abi.SearchRequest, r *policy.Resolved) (*abi.SearchResult, []byte, *abi.Error) {
	timeout := s.opts.Timeout
	if req.TimeoutMs > 0 {
		timeout = hostfns.Millis(req.TimeoutMs, timeout)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	max := s.opts.MaxResults
	if req.MaxResults > 0 {
		max = min(max, req.MaxResults)
	}
	seed := maphash.MakeSeed()
	c := &collector{ctx: ctx, s: s, root: r.Root, req: req, max: max, base: r.Rel, isDir: r.Info.IsDir(),
		seed: seed, lines: newLineReader(seed), res: &abi.SearchResult{Engine: "ripgrep", Files: []abi.SearchFile{}},
		crlf: crlf(req)}
	if s.rg == "" {
		return s.runNative(ctx, req, r, c)
	}

	ignoreFile, removeIgnore, aerr := s.ignoreFile(ctx, r)
	if aerr != nil {
		if ctx.Err() != nil {
			c.finish(nil) // out of time before rg began: partial
			return c.res, nil, nil
		}
		return nil, nil, aerr
	}
	defer removeIgnore()

	waitErr, stderr, aerr := s.ripgrep(ctx, req, r, c, ignoreFile, false)
	if aerr != nil {
		return nil, nil, aerr
	}
	if c.capped && ctx.Err() == nil {
		// rg's threads named files in the order they finished them, so
		// the files that filled the cap need not be the first in path
		// order: the search is run again on one thread in path order,
		// which stops as soon as the answer is full.
		first := c.reorder()
		waitErr, stderr, aerr = s.ripgrep(ctx, req, r, c, ignoreFile, true)
		if c.keepFirst(first) {
			return c.res, nil, nil
		}
		if aerr != nil {
			return nil, nil, aerr
		}
	}
	c.finish(c.readErr)
	readErr := c.readErr

	var exit *exec.ExitError
	if errors.As(waitErr, &exit) && !c.stopped && readErr == nil && ctx.Err() == nil {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			// Not killed by the host: rg ended at its memory cap.
			c.res.Aborted = true
		}
	}
	if errors.As(waitErr, &exit) && exit.ExitCode() == 2 && !c.stopped && !c.res.Partial {
		if msg := stderr.String(); strings.Contains(msg, "regex") {
			// RE2 syntax rg does not take (\Q…\E, for one) is searched
			// natively; a pattern neither takes is refused.
			if _, err := compilePattern(req); err != nil || len(c.res.Files) > 0 {
				return nil, nil, patternError(err, rgReason(msg, err))
			}
			c.stopped = false
			c.res = &abi.SearchResult{Engine: "ripgrep", Files: []abi.SearchFile{}}
			return s.runNative(ctx, req, r, c)
		}
	}
	return c.res, nil, nil
}

// ripgrep runs rg once for req into c, in path order when sorted, and
// returns how it ended and what it wrote on stderr.
func (s *server) ripgrep(ctx context.Context, req *abi.SearchRequest, r *policy.Resolved, c *collector, ignoreFile string, sorted bool) (error, *proc.Capped, *abi.Error) {
	args := s.argv(req, r.Rel, ignoreFile, perFile(req.Mode, c.max))
	if sorted {
		args = append([]string{"--sort=path"}, args...)
	}
	// No environment at all: nothing of the owner's reaches rg.
	cmd := proc.Command(ctx, r.Root.Real, nil, append([]string{s.rg}, args...)...)
	stderr := proc.NewCapped(4 << 10)
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, s.internal(err)
	}
	if err := cmd.Start(); err != nil {
		if proc.TooLong(err) {
			return nil, nil, abi.Errorf(abi.TooLarge, "the search's arguments are longer together than the system lets ripgrep receive; use a shorter pattern or glob")
		}
		return nil, nil, s.internal(err)
	}
	if err := proc.LimitData(cmd.Process.Pid, rgMaxData); err != nil {
		s.log.Warn("search: rg's memory cap could not be set", "err", err)
	}
	c.readErr = c.read(out)
	if c.stopped || c.readErr != nil {
		_ = cmd.Process.Kill()
	}
	_, _ = io.Copy(io.Discard, out)
	return cmd.Wait(), stderr, nil
}

// runNative is run where the host has no rg: the host nominates the lines
// itself (native.go) and the collector checks them as it checks rg's.
func (s *server) runNative(ctx context.Context, req *abi.SearchRequest, r *policy.Resolved, c *collector) (*abi.SearchResult, []byte, *abi.Error) {
	pt, err := compilePattern(req)
	if err != nil {
		return nil, nil, patternError(err, goReason(err))
	}
	c.res.Engine = "juju"
	readErr := s.nominateInto(ctx, req, r, pt, c, false)
	if c.capped && ctx.Err() == nil {
		// Named as the goroutines finished the files: again in path
		// order, as rg is run again (run).
		first := c.reorder()
		readErr = s.nominateInto(ctx, req, r, pt, c, true)
		if c.keepFirst(first) {
			return c.res, nil, nil
		}
	}
	c.finish(readErr)
	return c.res, nil, nil
}

// nominateInto runs the host's own search into c, in path order when
// sorted, and returns why reading its nominations ended early, if it did.
func (s *server) nominateInto(ctx context.Context, req *abi.SearchRequest, r *policy.Resolved, pt *patterns, c *collector, sorted bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		pw.CloseWithError(s.nominate(ctx, req, r, pt, pw, perFile(req.Mode, c.max), sorted))
	}()
	// At the deadline the collector stops reading, even while a file is
	// being searched.
	stop := context.AfterFunc(ctx, func() { pw.CloseWithError(ctx.Err()) })
	defer stop()
	readErr := c.read(pr)
	c.readErr = readErr
	pr.Close() // a nominator still writing stops
	// The nominators stop within a regexp call of the pipe's closing or
	// of ctx's end (matchWork); the answer waits for them nativeStopWait
	// at most. One that is later still ends: ctx is cancelled as this
	// returns.
	select {
	case <-done:
	case <-time.After(nativeStopWait):
	}
	return readErr
}

// nativeStopWait is how long an answer waits for the host's own search to
// stop: several times what one regexp call takes at most (matchWork) on a
// loaded machine.
const nativeStopWait = time.Second

// patternError is the error of a pattern that does not compile (why says
// why) or whose program is too large (err is an *errProgram).
func patternError(err error, why string) *abi.Error {
	if ep, ok := errors.AsType[*errProgram](err); ok {
		return abi.Errorf(abi.InvalidArgument, "the pattern compiles to a program of %d steps, more than the %d a search takes (ripgrep refuses such too): a large repeat of a character class, such as [\\pL\\pN]{1000}, is the usual cause; use a smaller count, such as {1,100}, or a simpler pattern", ep.size, maxProgram)
	}
	return badPattern(why)
}

// badPattern is the error of a pattern that does not compile.
func badPattern(why string) *abi.Error {
	return abi.Errorf(abi.InvalidArgument, "the pattern is not a valid regular expression: %s; fix it, or pass literal: true to search for the text as it is", why)
}

// rgReason is why rg refused a pattern, from what it wrote on stderr: the
// reason on its "error:" line (the lines above it only repeat the pattern
// and point under it), with the part Go's parser points at when it
// refuses the pattern too (goErr).
func rgReason(stderr string, goErr error) string {
	for l := range strings.SplitSeq(stderr, "\n") {
		if why, ok := strings.CutPrefix(strings.TrimSpace(l), "error:"); ok && strings.TrimSpace(why) != "" {
			if se, ok := errors.AsType[*syntax.Error](goErr); ok {
				return strings.TrimSpace(why) + at(se)
			}
			return strings.TrimSpace(why)
		}
	}
	if goErr != nil {
		return goReason(goErr)
	}
	return firstLines(stderr, 3)
}

// goReason is why Go's parser refused a pattern: what is wrong and where,
// in rg's words for the Perl syntax RE2 lacks (Go reads a look-behind as a
// bad named group, a backreference as a bad escape).
func goReason(err error) string {
	se, ok := errors.AsType[*syntax.Error](err)
	if !ok {
		return err.Error()
	}
	why, expr := string(se.Code), strings.TrimPrefix(se.Expr, "(?i)")
	switch {
	case strings.HasPrefix(expr, "(?=") || strings.HasPrefix(expr, "(?!") ||
		strings.HasPrefix(expr, "(?<=") || strings.HasPrefix(expr, "(?<!"):
		why = "look-around, including look-ahead and look-behind, is not supported"
	case se.Code == syntax.ErrInvalidEscape && len(expr) == 2 && expr[1] >= '1' && expr[1] <= '9':
		why = "backreferences are not supported"
	}
	return why + at(se)
}

// at says where in the pattern Go's parser stopped, without the (?i)
// compilePattern adds to a search that ignores case.
func at(se *syntax.Error) string {
	return " (at " + abi.Quote(strings.TrimPrefix(se.Expr, "(?i)")) + ")"
}

// rgMaxData caps rg's data memory (proc.LimitData), a backstop: with
// --max-count and --max-columns a file's matching lines cost rg little,
// but rg holds a whole line to find its end, and every match of a line it
// leaves out, to count them (a 100 MB line of one letter, searched for
// it, took it 1.4 GB). 1 GiB is some hundred times what a source tree
// costs it, and stops rg before it takes the machine's memory; the
// result then says it was aborted.
const rgMaxData = 1 << 30

// internal logs an unexpected failure and returns the error the plugin sees.
func (s *server) internal(err error) *abi.Error {
	s.log.Error("search host function failed", "err", err)
	return abi.Errorf(abi.Internal, "the search could not be run because of an unexpected error on the host; try again, or search with glob_files and read_file")
}

// firstLines returns the first n non-empty lines of s, joined by "; ".
func firstLines(s string, n int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && len(out) < n {
			out = append(out, l)
		}
	}
	return strings.Join(out, "; ")
}

// readRecords calls f with every record of rg's output (without its final
// line break): "NAME\0LINE:COLUMN:TEXT". A file's name may hold line breaks,
// never a NUL, so a line with no NUL yet is the start of a record that goes
// on, up to a name's length (PATH_MAX); rg writes nothing else on stdout. A
// record longer than maxEventBytes is skipped, and long called with its
// first longHead bytes. f returns false to stop.
func readRecords(r io.Reader, f func(rec []byte) bool, long func(head []byte)) error {
	br := bufio.NewReaderSize(r, 256<<10)
	var buf []byte    // a record read in pieces
	skipping := false // the record being read passed maxEventBytes
	for {
		chunk, err := br.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull && err != io.EOF {
			return err
		}
		rec := chunk
		if len(buf) > 0 || skipping || err == bufio.ErrBufferFull || (err == nil && bytes.IndexByte(chunk, 0) < 0) {
			if !skipping {
				buf = append(buf, chunk...)
				if len(buf) > maxEventBytes {
					long(buf[:longHead])
					buf, skipping = buf[:0], true
				}
			}
			if err == bufio.ErrBufferFull ||
				err == nil && !skipping && bytes.IndexByte(buf, 0) < 0 && len(buf) <= maxNameBytes {
				continue
			}
			rec = buf
		}
		if !skipping && len(bytes.TrimSpace(rec)) > 0 {
			if !f(bytes.TrimSuffix(rec, []byte("\n"))) {
				return nil
			}
		}
		buf, skipping = buf[:0], false
		if err == io.EOF {
			return nil
		}
	}
}

// maxNameBytes bounds a file's name as rg prints it (Linux's PATH_MAX).
const maxNameBytes = 4096

// longHead is how much of a record too long to read is kept: its name,
// line and column.
const longHead = maxNameBytes + 64

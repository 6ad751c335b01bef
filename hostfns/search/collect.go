package search

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/jujutools/juju/host/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// collector turns rg's output into a SearchResult, keeping only what the
// policy allows and stopping at the result cap.
type collector struct {
	s     *server
	root  *policy.Root
	req   *abi.SearchRequest
	max   int
	base  string // the searched path, root-relative
	isDir bool
	res   *abi.SearchResult

	cur     *file // the file whose lines are arriving (content mode)
	stopped bool  // the cap was reached; rg is killed
}

// file is one file of rg's JSON stream while its lines arrive.
type file struct {
	display string
	keep    bool
	lines   []line
}

type line struct {
	n      int
	text   string
	column int // 0 for a context line
}

// rgText is rg's representation of a path or a line: UTF-8 text, or
// base64 bytes when it is not valid UTF-8.
type rgText struct {
	Text  *string `json:"text"`
	Bytes string  `json:"bytes"`
}

func (t rgText) String() string {
	if t.Text != nil {
		return *t.Text
	}
	b, _ := base64.StdEncoding.DecodeString(t.Bytes)
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

type rgEvent struct {
	Type string `json:"type"`
	Data struct {
		Path       rgText `json:"path"`
		Lines      rgText `json:"lines"`
		LineNumber int    `json:"line_number"`
		Submatches []struct {
			Start int `json:"start"`
		} `json:"submatches"`
	} `json:"data"`
}

// read consumes rg's output in the request's mode. It stops early, with
// c.stopped set, when the cap is reached.
func (c *collector) read(r io.Reader) error {
	lr := &io.LimitedReader{R: r, N: c.s.opts.MaxOutput}
	var err error
	switch c.req.Mode {
	case abi.SearchFiles:
		err = splitOn(lr, 0, c.fileLine)
	case abi.SearchCount:
		err = splitOn(lr, '\n', c.countLine)
	default:
		err = readLines(lr, c.event)
	}
	if err == nil && lr.N <= 0 {
		c.res.Truncated = true
		c.stopped = true
	}
	return err
}

// event handles one line of --json output.
func (c *collector) event(b []byte) bool {
	var ev rgEvent
	if json.Unmarshal(b, &ev) != nil {
		return true
	}
	switch ev.Type {
	case "begin":
		c.flush()
		display, keep := c.admit(ev.Data.Path.String())
		c.cur = &file{display: display, keep: keep}
	case "match":
		if c.cur == nil || !c.cur.keep {
			return true
		}
		if c.res.Matches >= c.max {
			c.res.Truncated, c.stopped = true, true
			return false
		}
		text := ev.Data.Lines.String()
		col := 1
		if len(ev.Data.Submatches) > 0 {
			if st := ev.Data.Submatches[0].Start; st >= 0 && st <= len(text) {
				col = utf8.RuneCountInString(text[:st]) + 1
			}
		}
		c.cur.lines = append(c.cur.lines, line{n: ev.Data.LineNumber, text: clip(text), column: col})
		c.res.Matches++
	case "context":
		if c.cur != nil && c.cur.keep {
			c.cur.lines = append(c.cur.lines, line{n: ev.Data.LineNumber, text: clip(ev.Data.Lines.String())})
		}
	case "end":
		c.flush()
	}
	return true
}

// flush turns the current file's lines into a SearchFile.
func (c *collector) flush() {
	f := c.cur
	c.cur = nil
	if f == nil || !f.keep {
		return
	}
	n := c.req.ContextLines
	out := abi.SearchFile{Path: f.display}
	for i, l := range f.lines {
		if l.column == 0 {
			continue
		}
		m := abi.SearchMatch{Line: l.n, Column: l.column, Text: l.text}
		for j := i - 1; j >= 0 && f.lines[j].n >= l.n-n && f.lines[j].n == l.n-(i-j); j-- {
			m.Before = append([]string{f.lines[j].text}, m.Before...)
		}
		for j := i + 1; j < len(f.lines) && f.lines[j].n <= l.n+n && f.lines[j].n == l.n+(j-i); j++ {
			m.After = append(m.After, f.lines[j].text)
		}
		out.Matches = append(out.Matches, m)
	}
	if len(out.Matches) > 0 {
		c.res.Files = append(c.res.Files, out)
	}
}

// fileLine handles one path of --files-with-matches output.
func (c *collector) fileLine(b []byte) bool {
	display, keep := c.admit(string(b))
	if !keep {
		return true
	}
	if len(c.res.Files) >= c.max {
		c.res.Truncated, c.stopped = true, true
		return false
	}
	c.res.Files = append(c.res.Files, abi.SearchFile{Path: display})
	return true
}

// countLine handles one "path\0count" line of --count output.
func (c *collector) countLine(b []byte) bool {
	i := bytes.LastIndexByte(b, 0)
	if i < 0 {
		return true
	}
	n, err := strconv.Atoi(string(b[i+1:]))
	if err != nil {
		return true
	}
	display, keep := c.admit(string(b[:i]))
	if !keep {
		return true
	}
	if len(c.res.Files) >= c.max {
		c.res.Truncated, c.stopped = true, true
		return false
	}
	c.res.Files = append(c.res.Files, abi.SearchFile{Path: display, Count: n})
	c.res.Matches += n
	return true
}

// admit decides whether a file rg reports may be shown: the file glob (a
// glob with a slash, matched here), then the policy, which has the last
// word. It returns the file's display path.
func (c *collector) admit(p string) (string, bool) {
	rel := path.Clean(strings.TrimPrefix(p, "./"))
	if g := c.req.Glob; g != "" && !nameGlob(g) && !c.globMatch(g, rel) {
		return "", false
	}
	display := c.s.pol.Display(c.root, rel)
	if !c.s.allow(c.root, rel, display) {
		c.res.Hidden++
		return "", false
	}
	return display, true
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

// allow is the policy's last word on a file rg reports: the name rules on
// it and every folder above it, then Resolve and Open (which refuse a
// multiply-linked private key). The file must resolve to itself.
func (s *server) allow(root *policy.Root, rel, display string) bool {
	if s.pol.Check(root, rel) != nil {
		return false
	}
	r, aerr := s.pol.Resolve(display)
	if aerr != nil || r.Root != root || r.Rel != rel || !r.Info.Mode().IsRegular() {
		return false
	}
	f, aerr := s.pol.Open(r)
	if aerr != nil {
		return false
	}
	f.Close()
	return true
}

// clip drops a line's end of line and cuts it at MaxLineBytes.
func clip(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if len(s) <= MaxLineBytes {
		return s
	}
	cut := MaxLineBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + " …[line cut]"
}

// splitOn calls f with every sep-terminated record of r.
func splitOn(r io.Reader, sep byte, f func([]byte) bool) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, sep)
		rec := b
		if i >= 0 {
			rec, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if sep == 0 {
			rec = bytes.TrimLeft(rec, "\n")
		}
		if len(rec) > 0 && !f(rec) {
			return nil
		}
	}
	return nil
}

package fs

import (
	"context"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// maxDepth bounds how deep a walk goes (and how many folders it holds open).
const maxDepth = 256

func (s *server) glob(ctx context.Context, req *abi.GlobRequest, _ []byte) (*abi.GlobResult, []byte, *abi.Error) {
	base, pattern, e := splitGlob(req)
	if e != nil {
		return nil, nil, e
	}
	limit := s.opts.MaxGlobEntries
	if req.Limit > 0 && req.Limit < limit {
		limit = req.Limit
	}
	r, e := s.pol.Resolve(base)
	if e != nil {
		return nil, nil, e
	}
	if !r.Info.IsDir() {
		return nil, nil, notAFolder(r, "pass a folder as the base of the pattern")
	}
	d, e := openWalk(s.pol, r)
	if e != nil {
		return nil, nil, e
	}
	w := &globWalk{
		ctx:  ctx,
		pol:  s.pol,
		root: r.Root,
		m:    newMatcher(pattern),
		segs: pruneSegments(pattern),
		dirs: req.IncludeDirs,
		all:  req.IncludeIgnored,
		col:  collector{limit: limit, byTime: req.SortBy == "mtime"},
	}
	var ign ignoreStack
	if !w.all {
		ign = loadIgnores(r.Root, r.Rel)
	}
	if e := w.run(d, r.Rel, ign); e != nil {
		return nil, nil, e
	}
	res := w.col.result(s.pol, r.Root)
	if req.Packed {
		body := abi.AppendEntries(make([]byte, 0, 64*len(res.Entries)), res.Entries)
		res.Entries = []abi.Entry{}
		return res, body, nil
	}
	return res, nil, nil
}

// splitGlob checks the request and returns the base folder and the pattern
// relative to it. An absolute pattern, or one that climbs with "..", is
// split at its last literal folder when no base (or ".") is given.
func splitGlob(req *abi.GlobRequest) (base, pattern string, e *abi.Error) {
	switch req.SortBy {
	case "", "name", "mtime":
	default:
		return "", "", abi.Errorf(abi.InvalidArgument, `sortBy must be "name" or "mtime", not %s`, abi.Quote(req.SortBy))
	}
	if req.Limit < 0 {
		return "", "", abi.Errorf(abi.InvalidArgument, "limit must not be negative")
	}
	base, pattern = req.Path, req.Pattern
	// "./src/**" is "src/**", as rg and shells read it.
	for strings.HasPrefix(pattern, "./") && len(pattern) > 2 {
		pattern = strings.TrimLeft(pattern[2:], "/")
	}
	if strings.HasPrefix(pattern, "/") || hasDotDot(pattern) {
		// "." is the first root, the base a tool's default gives: an
		// absolute pattern names its folder itself.
		if base != "" && base != "." {
			return "", "", abi.Errorf(abi.InvalidArgument, "the pattern %s must be relative to the folder in path (no leading / and no ..)", abi.Quote(req.Pattern))
		}
		base, pattern = doublestar.SplitPattern(pattern)
		if hasDotDot(pattern) {
			return "", "", abi.Errorf(abi.InvalidArgument, "the pattern %s climbs with .. after a wildcard; put the folder in path and keep the pattern below it", abi.Quote(req.Pattern))
		}
	}
	pattern = strings.TrimRight(pattern, "/")
	if pattern != "" && !doublestar.ValidatePattern(pattern) {
		return "", "", abi.Errorf(abi.InvalidArgument, "the pattern %s is not a valid glob (check its brackets and braces)", abi.Quote(req.Pattern))
	}
	if abi.GlobForms(pattern) > abi.MaxGlobForms {
		return "", "", abi.Errorf(abi.InvalidArgument, "the pattern's brace groups expand to more than %d forms; use fewer {a,b} groups, or several calls", abi.MaxGlobForms)
	}
	if base == "" {
		base = "."
	}
	return base, pattern, nil
}

func isGitignore(d dirent) bool { return d.name == ".gitignore" && d.typ.IsRegular() }

// readFolder reads the entries of the folder d, root-relative rel, and,
// with ignores, pushes its regular .gitignore onto ign. ok is false when
// nothing could be read (the folder is gone, or not readable).
func readFolder(d walkDir, rel string, ign ignoreStack, ignores bool) (ents []dirent, _ ignoreStack, ok bool) {
	ents, err := d.ReadDir()
	if err != nil && len(ents) == 0 {
		return nil, ign, false
	}
	if ignores && slices.ContainsFunc(ents, isGitignore) {
		if data, _, err := d.ReadFile(".gitignore", maxIgnoreFile); err == nil {
			ign = ign.push(parseIgnore(relBase(rel), data))
		}
	}
	return ents, ign, true
}

// relBase turns a root-relative folder into the base of its .gitignore.
func relBase(rel string) string {
	if rel == "." {
		return ""
	}
	return rel
}

func hasDotDot(pattern string) bool {
	for seg := range strings.SplitSeq(pattern, "/") {
		if seg == ".." {
			return true
		}
	}
	return false
}

// pruneSegments splits pattern into the segments used to skip folders that
// cannot hold a match; nil means every folder is entered.
func pruneSegments(pattern string) []string {
	if pattern == "" || strings.ContainsAny(pattern, `{}\`) {
		return nil
	}
	return strings.Split(pattern, "/")
}

// globWalk is one walk. Folders are opened from their parent's descriptor,
// never by path and never through a symlink. A folder is handed to another
// goroutine when a worker slot is free, else walked in place.
type globWalk struct {
	ctx  context.Context
	pol  *policy.Policy
	root *policy.Root
	m    matcher
	segs []string
	cut  int  // bytes of a root-relative path before its path below the base
	dirs bool // IncludeDirs
	all  bool // IncludeIgnored

	slots chan struct{} // free worker slots
	wg    sync.WaitGroup
	mu    sync.Mutex // guards col and err
	col   collector
	err   *abi.Error
}

// run walks d (closing it) and waits for every worker.
func (w *globWalk) run(d walkDir, rel string, ign ignoreStack) *abi.Error {
	w.slots = make(chan struct{}, max(runtime.GOMAXPROCS(0)-1, 0))
	if rel != "." {
		w.cut = len(rel) + 1
	}
	w.walk(d, rel, 0, ign, 0)
	w.wg.Wait()
	return w.err
}

// walk reads the folder d, whose root-relative path is rel; state is the
// index of the pattern segment its entries must match (-1 once a "**" has
// been reached). It closes d.
func (w *globWalk) walk(d walkDir, rel string, state int, ign ignoreStack, depth int) {
	defer d.Close()
	if e := canceled(w.ctx); e != nil {
		w.fail(e)
		return
	}
	ents, ign, ok := readFolder(d, rel, ign, !w.all)
	if !ok {
		return // gone, or not readable: nothing to report
	}
	var batch []found
	var held withheld
	for _, de := range ents {
		name, typ := de.name, de.typ
		if name == ".git" {
			continue
		}
		erel := joinRel(rel, name)
		esub := erel[w.cut:]
		if code := w.pol.Withholds(w.root, erel); code != "" {
			if w.m.match(esub, name) {
				held.add(code)
			}
			continue
		}
		if !w.all && ign.ignored(erel, typ.IsDir()) {
			continue
		}
		if !utf8.ValidString(name) {
			// No argument can name it, and its display form, with
			// U+FFFD, names another file: counted, not listed or
			// walked.
			if typ.IsDir() || w.m.match(esub, name) {
				held.unnamed++
			}
			continue
		}
		switch {
		case typ.IsDir():
			if w.dirs && w.m.match(esub, name) {
				batch = w.found(batch, d, erel, name, nil)
			}
			if next, ok := w.descend(state, name); ok && depth < maxDepth {
				if child, err := d.Child(name); err == nil {
					w.spawn(child, erel, next, ign, depth+1)
				}
			}
		case !w.m.match(esub, name):
		case typ&fs.ModeSymlink != 0:
			t, st, code := resolveLinkCode(w.pol, w.root, erel)
			switch {
			case st == linkVisible && listable(t.Info.Mode(), w.dirs):
				batch = w.found(batch, d, erel, name, t)
			case st == linkHidden:
				held.add(code)
			}
		case typ.IsRegular():
			batch = w.found(batch, d, erel, name, nil)
		}
	}
	if len(batch) > 0 || held.hidden > 0 || held.unnamed > 0 {
		w.mu.Lock()
		for _, f := range batch {
			w.col.add(f)
		}
		w.col.held.hidden += held.hidden
		w.col.held.secrets += held.secrets
		w.col.held.unnamed += held.unnamed
		w.mu.Unlock()
	}
}

// listable says whether a link to a target of mode m is a match: a link
// to a regular file, or to a folder with IncludeDirs. A FIFO, socket or
// device is no file to read or edit: none is a match, in the walk or
// through a link, as rg --files (Claude Code's Glob) lists only files.
func listable(m fs.FileMode, dirs bool) bool {
	return m.IsRegular() || dirs && m.IsDir()
}

// withheld counts the matches the policy withheld, and apart the names
// that are not UTF-8 passed over.
type withheld struct{ hidden, secrets, unnamed int }

func (h *withheld) add(code abi.Code) {
	h.hidden++
	if code == abi.SecretDenied {
		h.secrets++
	}
}

// spawn walks a subfolder on a free worker, or here when none is free.
func (w *globWalk) spawn(d walkDir, rel string, state int, ign ignoreStack, depth int) {
	select {
	case w.slots <- struct{}{}:
		w.wg.Add(1)
		go func() {
			defer func() { <-w.slots; w.wg.Done() }()
			w.walk(d, rel, state, ign, depth)
		}()
	default:
		w.walk(d, rel, state, ign, depth)
	}
}

func (w *globWalk) fail(e *abi.Error) {
	w.mu.Lock()
	if w.err == nil {
		w.err = e
	}
	w.mu.Unlock()
}

// found appends the entry name of d to batch.
func (w *globWalk) found(batch []found, d walkDir, rel, name string, target *policy.Resolved) []found {
	info, err := d.Lstat(name)
	if err != nil {
		return batch // removed since the folder was read
	}
	return append(batch, found{rel: rel, info: info, target: target})
}

// matcher is a compiled pattern. The common shapes ("**/*.go",
// "**/name") are checked on the last name without the glob engine.
type matcher struct {
	pattern string
	kind    int
	lit     string
}

const (
	matchAll    = iota // empty pattern
	matchSuffix        // "**/*lit": the name ends in lit
	matchName          // "**/lit": the name is lit
	matchGlob          // anything else
)

func newMatcher(pattern string) matcher {
	m := matcher{pattern: pattern, kind: matchGlob}
	const meta = `*?[]{}\/`
	rest, deep := strings.CutPrefix(pattern, "**/")
	switch {
	case pattern == "":
		m.kind = matchAll
	case deep && strings.HasPrefix(rest, "*") && !strings.ContainsAny(rest[1:], meta):
		m.kind, m.lit = matchSuffix, rest[1:]
	case deep && !strings.ContainsAny(rest, meta):
		m.kind, m.lit = matchName, rest
	}
	return m
}

func (m *matcher) match(sub, name string) bool {
	switch m.kind {
	case matchAll:
		return true
	case matchSuffix:
		return strings.HasSuffix(name, m.lit)
	case matchName:
		return name == m.lit
	}
	return doublestar.MatchUnvalidated(m.pattern, sub)
}

// descend says whether the folder name, met at segment state, may hold
// matches, and the state of its entries.
func (w *globWalk) descend(state int, name string) (int, bool) {
	switch {
	case w.segs == nil || state < 0:
		return state, true
	case state >= len(w.segs):
		return state, false
	case w.segs[state] == "**":
		return -1, true
	case doublestar.MatchUnvalidated(w.segs[state], name):
		return state + 1, state+1 < len(w.segs)
	}
	return state, false
}

// found is one match.
type found struct {
	rel    string
	info   fs.FileInfo
	target *policy.Resolved
}

func (f *found) modTime() int64 {
	if f.target != nil {
		return f.target.Info.ModTime().UnixNano()
	}
	return f.info.ModTime().UnixNano()
}

// collector keeps the first limit matches in the requested order, in memory
// bounded by twice limit, and counts them all.
type collector struct {
	limit  int
	byTime bool
	items  []found
	total  int
	held   withheld
}

func (c *collector) add(f found) {
	c.total++
	c.items = append(c.items, f)
	if len(c.items) >= 2*c.limit+1024 {
		c.trim()
	}
}

func (c *collector) trim() {
	slices.SortFunc(c.items, c.compare)
	if len(c.items) > c.limit {
		clear(c.items[c.limit:])
		c.items = c.items[:c.limit]
	}
}

func (c *collector) compare(a, b found) int {
	if c.byTime {
		if ta, tb := a.modTime(), b.modTime(); ta != tb {
			if ta > tb {
				return -1
			}
			return 1
		}
	}
	return strings.Compare(a.rel, b.rel)
}

func (c *collector) result(pol *policy.Policy, root *policy.Root) *abi.GlobResult {
	c.trim()
	res := &abi.GlobResult{Entries: make([]abi.Entry, len(c.items)), Total: c.total, Hidden: c.held.hidden, HiddenSecrets: c.held.secrets, Unnamed: c.held.unnamed}
	for i := range c.items {
		res.Entries[i] = newEntry(pol, root, c.items[i].rel, c.items[i].info, c.items[i].target, nil)
	}
	res.Truncated = c.total > len(res.Entries)
	return res
}

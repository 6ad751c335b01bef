package fs

import (
	"context"
	"io/fs"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// listed is an entry of a folder that a listing shows: by name, not yet
// described.
type listed struct {
	de     dirent
	rel    string
	target *policy.Resolved // a visible symlink's target
}

// list answers a window of a folder's entries in name order: every entry
// is filtered by name (policy, .gitignore, a link's target) to count them
// all, and only those of the window are described, so a folder of 200,000
// entries costs one read of the folder and a sort, and the answer stays
// small (MaxListEntries at most).
func (s *server) list(ctx context.Context, req *abi.ListRequest, _ []byte) (*abi.ListResult, []byte, *abi.Error) {
	if req.Offset < 0 || req.Limit < 0 {
		return nil, nil, abi.Errorf(abi.InvalidArgument, "offset and limit must not be negative")
	}
	limit := s.opts.MaxListEntries
	if req.Limit > 0 && req.Limit < limit {
		limit = req.Limit
	}
	p := req.Path
	if p == "" {
		p = "."
	}
	r, e := s.pol.Resolve(p)
	if e != nil {
		return nil, nil, e
	}
	if !r.Info.IsDir() && r.Link != "" {
		return nil, nil, notAFolder(r, "read it with read_file, or see the link itself with file_info")
	}
	if !r.Info.IsDir() {
		return nil, nil, notAFolder(r, "read it with read_file")
	}
	d, e := openWalk(s.pol, r)
	if e != nil {
		return nil, nil, e
	}
	defer d.Close()
	// Nothing of the entries outlives the call: where the platform
	// allows, their names share one allocation, their stats one FileInfo.
	lstat := forListing(d)
	ents, err := d.ReadDir()
	if err != nil && len(ents) == 0 {
		return nil, nil, s.internal("list", r.Display, err)
	}
	var ign ignoreStack
	if !req.IncludeIgnored {
		ign = loadIgnores(r.Root, r.Rel)
		if slices.ContainsFunc(ents, isGitignore) {
			if fi, err := d.Lstat(".gitignore"); err == nil && fi.Mode().IsRegular() {
				key := ignoreKey{root: r.Root.Real, name: joinRel(r.Rel, ".gitignore"), base: relBase(r.Rel)}
				ign = ign.push(cachedIgnoreFile(key, fi, func() ([]byte, error) {
					data, _, err := d.ReadFile(".gitignore", maxIgnoreFile)
					return data, err
				}))
			}
		}
	}
	res := &abi.ListResult{Path: r.Display, Entries: []abi.Entry{}}
	shown := make([]listed, 0, len(ents))
	rels := relArena(r.Rel, ents)
	for i, de := range ents {
		if i%256 == 0 {
			if e := canceled(ctx); e != nil {
				return nil, nil, e
			}
		}
		l := listed{de: de, rel: rels.join(r.Rel, de.name)}
		if s.pol.Hidden(r.Root, l.rel) {
			res.Hidden++
			continue
		}
		if !req.IncludeIgnored && ign.ignored(l.rel, de.typ.IsDir()) {
			res.Ignored++
			continue
		}
		if !utf8.ValidString(de.name) {
			// Its display form, with U+FFFD, names another file, and
			// no argument can name it: counted, not listed.
			res.Unnamed++
			continue
		}
		if de.typ&fs.ModeSymlink != 0 {
			t, state := resolveLink(s.pol, r.Root, l.rel)
			if state == linkHidden {
				res.Hidden++
				continue
			}
			l.target = t
		}
		shown = append(shown, l)
	}
	slices.SortFunc(shown, func(a, b listed) int { return strings.Compare(a.de.name, b.de.name) })
	res.Total = len(shown)
	from := min(req.Offset, len(shown))
	window := shown[from:min(from+limit, len(shown))]
	res.Truncated = from+len(window) < len(shown)
	res.Entries = make([]abi.Entry, 0, len(window))
	times := timeArena(len(window))
	for _, l := range window {
		info, err := lstat(l.de.name)
		if err != nil {
			continue // removed since the folder was read
		}
		if info.Mode()&fs.ModeSymlink != 0 && l.de.typ&fs.ModeSymlink == 0 {
			// Swapped for a link since the folder was read: check it now.
			t, state := resolveLink(s.pol, r.Root, l.rel)
			if state == linkHidden {
				continue
			}
			l.target = t
		}
		e := newEntry(s.pol, r.Root, l.rel, info, l.target, &times)
		res.Entries = append(res.Entries, e)
	}
	if req.Packed {
		body := abi.AppendEntries(make([]byte, 0, 64*len(res.Entries)), res.Entries)
		res.Entries = []abi.Entry{}
		return res, body, nil
	}
	return res, nil, nil
}

// arena hands out strings from one allocation sized ahead: appending
// within its capacity never moves it, so the strings already handed out
// stay valid; past it, a string is allocated on its own.
type arena []byte

// add returns the parts joined, as a string of the arena.
func (a *arena) add(parts ...string) string {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n == 0 {
		return ""
	}
	if len(*a)+n > cap(*a) {
		return strings.Join(parts, "")
	}
	start := len(*a)
	for _, p := range parts {
		*a = append(*a, p...)
	}
	return unsafe.String(&(*a)[start], n)
}

// relArena holds the root-relative paths of a folder's entries: none
// when the folder is the root's own (a path is then its name).
func relArena(dir string, ents []dirent) arena {
	if dir == "." || dir == "" {
		return nil
	}
	n := 0
	for _, de := range ents {
		n += len(dir) + 1 + len(de.name)
	}
	return make(arena, 0, n)
}

// join is joinRel, its path taken from the arena.
func (a *arena) join(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return a.add(dir, "/", name)
}

// maxTimeText is the most bytes of a modification time as modTime writes
// it (a year of four digits; later years are allocated apart).
const maxTimeText = len("2006-01-02T15:04:05.999999999Z")

// timeArena holds the modification times of n entries.
func timeArena(n int) arena { return make(arena, 0, n*maxTimeText) }

// time is modTime, written into the arena.
func (a *arena) time(t time.Time) string {
	start := len(*a)
	b := t.UTC().AppendFormat(*a, time.RFC3339Nano)
	if cap(b) != cap(*a) {
		// Appending moved the bytes: keep the arena, allocate this one.
		return string(b[start:])
	}
	*a = b
	return unsafe.String(&(*a)[start], len(*a)-start)
}

package fs

import (
	"context"
	"io/fs"
	"slices"
	"strings"

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
	if !r.Info.IsDir() {
		return nil, nil, abi.Errorf(abi.InvalidArgument, "%q is a file, not a folder; read it with read_file", r.Display)
	}
	d, e := openWalk(s.pol, r)
	if e != nil {
		return nil, nil, e
	}
	defer d.Close()
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
	for i, de := range ents {
		if i%256 == 0 {
			if e := canceled(ctx); e != nil {
				return nil, nil, e
			}
		}
		l := listed{de: de, rel: joinRel(r.Rel, de.name)}
		if s.pol.Hidden(r.Root, l.rel) {
			res.Hidden++
			continue
		}
		if !req.IncludeIgnored && ign.ignored(l.rel, de.typ.IsDir()) {
			res.Ignored++
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
	for _, l := range window {
		info, err := d.Lstat(l.de.name)
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
		res.Entries = append(res.Entries, newEntry(s.pol, r.Root, l.rel, info, l.target))
	}
	if req.Packed {
		body := abi.AppendEntries(make([]byte, 0, 64*len(res.Entries)), res.Entries)
		res.Entries = []abi.Entry{}
		return res, body, nil
	}
	return res, nil, nil
}

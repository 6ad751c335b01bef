package fs

import (
	"context"
	"io/fs"
	"slices"
	"strings"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

func (s *server) list(ctx context.Context, req *abi.ListRequest, _ []byte) (*abi.ListResult, []byte, *abi.Error) {
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
			if data, err := d.ReadFile(".gitignore", maxIgnoreFile); err == nil {
				ign = ign.push(parseIgnore(relBase(r.Rel), data))
			}
		}
	}
	res := &abi.ListResult{Path: r.Display, Entries: []abi.Entry{}}
	for i, de := range ents {
		if i%256 == 0 {
			if e := canceled(ctx); e != nil {
				return nil, nil, e
			}
		}
		rel := joinRel(r.Rel, de.name)
		if s.pol.Hidden(r.Root, rel) {
			res.Hidden++
			continue
		}
		if !req.IncludeIgnored && ign.ignored(rel, de.typ.IsDir()) {
			res.Ignored++
			continue
		}
		info, err := d.Lstat(de.name)
		if err != nil {
			continue // removed since the folder was read
		}
		var target *policy.Resolved
		if info.Mode()&fs.ModeSymlink != 0 {
			t, state := resolveLink(s.pol, r.Root, rel)
			if state == linkHidden {
				res.Hidden++
				continue
			}
			target = t
		}
		res.Entries = append(res.Entries, newEntry(s.pol, r.Root, rel, info, target))
	}
	slices.SortFunc(res.Entries, func(a, b abi.Entry) int { return strings.Compare(a.Name, b.Name) })
	return res, nil, nil
}

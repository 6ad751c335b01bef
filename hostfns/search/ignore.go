package search

import (
	"context"
	"os"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// ignoreFile writes what a walk of the folder r leaves out (fs.LeftOut:
// what .gitignore excludes and what the policy withholds, each by its
// exact path) to a temporary file for rg's --ignore-file, so that rg,
// which reads no ignore file of the tree, skips what juju's own walk
// skips; only the folders that changed since the last search of r are
// read again (fs.LeftOuts). It returns the file's path ("" when r is a file or nothing is
// left out) and a function that removes it.
//
// rg would otherwise read the tree's .gitignore files itself, by path:
// one that is a link to /dev/zero, a FIFO or a file outside the roots
// would be read through, and those above the root too.
func (s *server) ignoreFile(ctx context.Context, r *policy.Resolved) (string, func(), *abi.Error) {
	none := func() {}
	if !r.Info.IsDir() {
		return "", none, nil
	}
	rules, aerr := s.leftOuts.LeftOut(ctx, s.pol, r, nativeMaxDepth)
	if aerr != nil || len(rules) == 0 {
		return "", none, aerr
	}
	f, err := os.CreateTemp("", "juju-search-*.ignore")
	if err != nil {
		return "", nil, s.internal(err)
	}
	remove := func() { os.Remove(f.Name()) }
	if _, err := f.Write(rules); err != nil {
		f.Close()
		remove()
		return "", nil, s.internal(err)
	}
	if err := f.Close(); err != nil {
		remove()
		return "", nil, s.internal(err)
	}
	return f.Name(), remove, nil
}

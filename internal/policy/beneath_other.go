//go:build !linux

package policy

import (
	"io/fs"
	"os"

	"github.com/jujutools/juju/sdk/abi"
)

// Without openat2, Resolve and Open always walk through folder handles.

func (r *Root) rootFD() (int, bool) { return -1, false }

func (p *Policy) fastResolve(string) (*Resolved, bool) { return nil, false }

func (p *Policy) fastOpen(*Resolved) (*os.File, *abi.Error, bool) { return nil, nil, false }

func (p *Policy) fastRead(*Resolved) (Reader, fs.FileInfo, *abi.Error, bool) {
	return nil, nil, nil, false
}

// OpenListed opens the regular file rel of the root to read it if it is
// still the file want (openListedPortable: no openat2 here).
func (r *Root) OpenListed(rel string, want fs.FileInfo) (*os.File, error) {
	return r.openListedPortable(rel, want)
}

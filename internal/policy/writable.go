package policy

import (
	"strings"

	"github.com/jujutools/juju/sdk/abi"
)

// Writable says whether file tools may change the resolved path r: never
// a root itself (nor another root inside it), nothing named .git or inside it (hooks and config are
// code execution), no secret, denied path or juju's own state. It returns
// nil when the write is allowed.
//
// A writer replaces a file (write a temporary file, then rename): it never
// writes into a file in place, so a hard link to a file elsewhere is broken,
// not written through.
func (p *Policy) Writable(r *Resolved) *abi.Error {
	if r == nil || r.Root == nil {
		return abi.Errorf(abi.Internal, "the host checked a path it had not resolved; report this to the owner")
	}
	if r.Rel == "." || r.Root.rootAt(r.Rel) {
		return abi.Errorf(abi.PathDenied, "%s is a workspace root, which file tools never replace or delete; name a path inside it", abi.Quote(r.Display))
	}
	for name := range strings.SplitSeq(r.Rel, "/") {
		if fold(name) == ".git" {
			return abi.Errorf(abi.PathDenied, "%s is inside .git, whose hooks and config are never writable through file tools; use git commands (git_commit) instead", abi.Quote(r.Display))
		}
	}
	return p.Check(r.Root, r.Rel)
}

// rootAt reports whether rel is another root, one nested inside r.
func (r *Root) rootAt(rel string) bool {
	for _, n := range r.nests {
		if n.inner && n.prefix == rel {
			return true
		}
	}
	return false
}

// ResolveMissing is Resolve where the last names of the path may be
// missing (Info is then nil), without the Writable check: for the folder
// above a name that a change creates, moves or deletes (the caller checks
// Writable on that name).
func (p *Policy) ResolveMissing(path string) (*Resolved, *abi.Error) {
	return p.resolve(path, true)
}

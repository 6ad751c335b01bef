package policy

import (
	"path"
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
	if e := p.repositoryWrite(r.Root, r.Rel, r.Display); e != nil {
		return e
	}
	return p.Check(r.Root, r.Rel)
}

// repositoryWrite refuses a write to a bare repository's hooks (a clone
// such as mirror.git kept in the workspace, or the root itself), or to
// such a repository's folder whole: a hook written there, or a sample
// moved onto a hook's name (git init makes them executable), ran as the
// owner's program at the owner's next push to it. The repository is
// known by what git needs in it (HEAD, objects, refs), not by its name;
// a working tree's .git is refused by name above.
func (p *Policy) repositoryWrite(r *Root, rel, display string) *abi.Error {
	names := strings.Split(rel, "/")
	for i, name := range names {
		dir := path.Join(names[:i]...)
		switch {
		case fold(name) == "hooks" && r.repositoryAt(dir):
			return abi.Errorf(abi.PathDenied, "%s is in the hooks of the git repository %s, which git runs as the owner's programs; file tools never write them: ask the owner", abi.Quote(display), abi.Quote(p.Display(r, dir)))
		case i == len(names)-1 && r.repositoryAt(rel):
			return abi.Errorf(abi.PathDenied, "%s is a git repository, which file tools never replace, move or delete whole; work inside it, or ask the owner", abi.Quote(display))
		}
	}
	return nil
}

// repositoryAt reports whether the folder rel of the root ("" for the
// root itself) is a git repository's own folder: a HEAD file, objects and
// refs folders, as they are now (a root can become one after juju
// started).
func (r *Root) repositoryAt(rel string) bool {
	if fi, err := r.OS.Lstat(path.Join(rel, "HEAD")); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	for _, d := range []string{"objects", "refs"} {
		if fi, err := r.OS.Lstat(path.Join(rel, d)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
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

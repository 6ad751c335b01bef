package fs

import (
	"io/fs"
	"path"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// typeOf names the type of a file mode.
func typeOf(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return abi.TypeFile
	case m.IsDir():
		return abi.TypeDir
	case m&fs.ModeSymlink != 0:
		return abi.TypeSymlink
	}
	return abi.TypeOther
}

// linkState is what a symlink entry of a listing or a walk turns into.
type linkState int

const (
	linkVisible  linkState = iota // target visible inside a root
	linkHidden                    // target outside, secret or denied: withheld
	linkDangling                  // target missing or looping: no Target
)

// resolveLink resolves the symlink entry rel of root.
func resolveLink(pol *policy.Policy, root *policy.Root, rel string) (*policy.Resolved, linkState) {
	r, st, _ := resolveLinkCode(pol, root, rel)
	return r, st
}

// resolveLinkCode is resolveLink with, for a withheld link, the code of the
// refusal (SECRET_DENIED for a link to a secret, PATH_DENIED otherwise).
func resolveLinkCode(pol *policy.Policy, root *policy.Root, rel string) (*policy.Resolved, linkState, abi.Code) {
	r, e := pol.Resolve(pol.Display(root, rel))
	if e == nil {
		return r, linkVisible, ""
	}
	switch e.Code {
	case abi.NotFound, abi.InvalidArgument:
		return nil, linkDangling, ""
	case abi.SecretDenied:
		return nil, linkHidden, abi.SecretDenied
	}
	return nil, linkHidden, abi.PathDenied
}

// newEntry builds an entry from the Lstat of rel; for a visible link, the
// size and time are the target's and Target its display path. A folder's
// size is 0 (what the file system says is block bookkeeping, not content).
// The times are written into times when it is not nil.
func newEntry(pol *policy.Policy, root *policy.Root, rel string, info fs.FileInfo, target *policy.Resolved, times *arena) abi.Entry {
	mod := modTime
	if times != nil {
		mod = times.time
	}
	e := abi.Entry{
		Name: path.Base(rel),
		Path: pol.Display(root, rel),
		Type: typeOf(info.Mode()),
		Size: info.Size(),
	}
	if target != nil {
		e.Target = target.Display
		e.Size = target.Info.Size()
		e.ModTime = mod(target.Info.ModTime())
		if target.Info.IsDir() {
			e.Size = 0
		}
	}
	if e.ModTime == "" {
		e.ModTime = mod(info.ModTime())
	}
	if e.Type == abi.TypeDir {
		e.Size = 0
	}
	return e
}

// joinRel joins a root-relative folder and a name.
func joinRel(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

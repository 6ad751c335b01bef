package fs

import (
	"io"
	"strings"

	"github.com/jujutools/juju/internal/policy"
)

// maxIgnoreFile bounds how much of one .gitignore is read.
const maxIgnoreFile = 1 << 20

// loadIgnores returns the rules that apply to the entries of the folder dir
// (root-relative), except those of dir's own .gitignore: the root's
// .git/info/exclude and the .gitignore of every folder above dir.
func loadIgnores(root *policy.Root, dir string) ignoreStack {
	var s ignoreStack
	s = s.push(readIgnoreFile(root, ".git/info/exclude", ""))
	if dir == "." || dir == "" {
		return s
	}
	names := strings.Split(dir, "/")
	for i := range names {
		base := strings.Join(names[:i], "/")
		s = s.push(readIgnore(root, base))
	}
	return s
}

// readIgnore reads the .gitignore of the root-relative folder base.
func readIgnore(root *policy.Root, base string) *ignoreFile {
	if base == "." {
		base = ""
	}
	return readIgnoreFile(root, joinRel(base, ".gitignore"), base)
}

// readIgnoreFile reads the rules in name (root-relative), a regular file,
// whose patterns are relative to the root-relative folder base, or takes
// them from the cache when the file has not changed since. A missing or
// unreadable file has no rules.
func readIgnoreFile(root *policy.Root, name, base string) *ignoreFile {
	fi, err := root.OS.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	return cachedIgnoreFile(ignoreKey{root: root.Real, name: name, base: base}, fi, func() ([]byte, error) {
		f, err := openRegular(root.OS, name, fi)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return io.ReadAll(io.LimitReader(f, maxIgnoreFile))
	})
}

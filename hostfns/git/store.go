package git

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// What a repository's folders may lead git to. The folders of a
// repository inside the roots are workspace content: a link in them
// (refs/heads/x → another repository's ref, objects → another
// repository's objects, a pack, a reflog, the index) or an
// objects/info/alternates naming another object store makes git read a
// repository outside the roots as if it were this one. git follows both
// and has no setting to refuse them, so before every run juju checks the
// repository's folders and refuses the run when one leads outside.

// maxStoreEntries bounds the entries one check reads, over the
// repository's folders and the alternates they name. A packed repository
// holds a few thousand (refs, packs, reflogs), read in milliseconds; git
// packs loose objects past 6,700 (gc.auto), so 100,000 leaves room for
// many loose refs and objects, and reading that many names took 0.1 to
// 0.4 s on a loaded 2-core machine. A repository past it is refused,
// with the advice to pack it.
const maxStoreEntries = 100_000

// maxAlternatesFile bounds the objects/info/alternates file read: a line
// per object store, a few hundred bytes each; 64 KiB is hundreds of them.
const maxAlternatesFile = 64 << 10

// notChecked are the entries at the top of a repository folder that feed
// git no repository data: hooks (no read runs them; a commit runs them
// confined), the submodules' repositories (never used), and the
// configuration (read for settings, which inert.go neutralises, never
// shown).
var notChecked = map[string]bool{"hooks": true, "modules": true, "config": true, "config.worktree": true}

// storeCheck is one check of a repository's folders.
type storeCheck struct {
	pol     *policy.Policy
	roots   []string // the roots' real paths
	allowed []string // the roots and the repository's own folders
	seen    map[string]bool
	n       int
}

// checkStore refuses (PATH_DENIED) a repository
// whose folders inside the roots hold a link leading outside the roots
// and the repository's own folders, or an alternates file naming an
// object store outside the roots. Folders outside the roots are the
// owner's (pinRepo took them only when they name this work tree back)
// and are not read.
func checkStore(p *policy.Policy, rp *repo) *abi.Error {
	c := &storeCheck{pol: p, seen: map[string]bool{}}
	for _, r := range p.Roots() {
		c.roots = append(c.roots, r.Real)
	}
	c.allowed = append(append([]string(nil), c.roots...), rp.gitDir, rp.common)
	for _, d := range []string{rp.gitDir, rp.common} {
		if err := c.store(d); err != nil {
			return err
		}
	}
	return nil
}

func (c *storeCheck) within(p string, dirs []string) bool {
	for _, d := range dirs {
		if policy.Within(p, d) {
			return true
		}
	}
	return false
}

// display names p, a path inside the roots, as the model sees it.
func (c *storeCheck) display(p string) string {
	for _, r := range c.pol.Roots() {
		if rel, err := filepath.Rel(r.Real, p); err == nil && policy.Within(p, r.Real) {
			return c.pol.Display(r, filepath.ToSlash(rel))
		}
	}
	return filepath.Base(p)
}

// store checks the repository folder dir, when it lies inside the roots:
// every link in it, and the alternates of its object store.
func (c *storeCheck) store(dir string) *abi.Error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil || !c.within(real, c.roots) || c.seen[real] {
		return nil
	}
	if err := c.walk(real, true); err != nil {
		return err
	}
	return c.alternates(filepath.Join(real, "objects"))
}

// walk checks every link under dir (a real path inside the roots); a link
// to a folder inside the roots is walked in turn. top says dir is a
// repository folder, whose notChecked entries are left alone.
func (c *storeCheck) walk(dir string, top bool) *abi.Error {
	if c.seen[dir] {
		return nil
	}
	c.seen[dir] = true
	var out *abi.Error
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: git cannot read it either
		}
		if c.n++; c.n > maxStoreEntries {
			out = abi.Errorf(abi.TooLarge, "the repository's folder holds more than %d entries, more than juju checks before a git run; ask the owner to pack it (git gc on the terminal)", maxStoreEntries)
			return fs.SkipAll
		}
		if top && filepath.Dir(p) == dir && notChecked[d.Name()] {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		real, rerr := filepath.EvalSymlinks(p)
		if rerr != nil || !c.within(real, c.allowed) {
			out = abi.Errorf(abi.PathDenied, "%s in the repository is a link that leads outside the workspace roots (or nowhere), so git would read another repository's data as this one's; juju's git tools do not read this repository until the owner removes that link", abi.Quote(c.display(p)))
			return fs.SkipAll
		}
		if fi, err := os.Stat(real); err == nil && fi.IsDir() && c.within(real, c.roots) {
			if out = c.walk(real, false); out != nil {
				return fs.SkipAll
			}
		}
		return nil
	})
	return out
}

// alternates checks the object stores objects/info/alternates names (git
// reads them, and theirs, as part of this repository's): each must lie
// inside the roots, and is checked like the repository's own folders.
func (c *storeCheck) alternates(objects string) *abi.Error {
	name := filepath.Join(objects, "info", "alternates")
	refuse := func(why string) *abi.Error {
		return abi.Errorf(abi.PathDenied, "%s %s, so git would read another repository's objects as this one's; juju's git tools do not read this repository until the owner makes it stand alone (git repack -a -d, then remove that file, on the terminal)", abi.Quote(c.display(name)), why)
	}
	b, err := readRegular(name, maxAlternatesFile+1)
	if errors.Is(err, errNotRegular) {
		// A FIFO, which git would wait on as juju did, or a device.
		return abi.Errorf(abi.PathDenied, "%s is not a regular file, so git would wait on it or read a device; juju's git tools do not read this repository until it is removed (on the terminal, or with run_command)", abi.Quote(c.display(name)))
	}
	if err != nil {
		return nil
	}
	if len(b) > maxAlternatesFile {
		return refuse(fmt.Sprintf("is longer than the %d KiB juju reads", maxAlternatesFile>>10))
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		p := line
		if line[0] == '"' {
			if p, err = strconv.Unquote(line); err != nil {
				return refuse("holds a line juju cannot read")
			}
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(objects, p)
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil || !c.within(real, c.roots) {
			return refuse("names an object store outside the workspace roots (or none)")
		}
		if c.seen[real] {
			continue
		}
		if err := c.walk(real, false); err != nil {
			return err
		}
		if err := c.alternates(real); err != nil {
			return err
		}
	}
	return nil
}

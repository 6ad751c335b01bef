package git

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	// The folders pinned at start, real paths then, must be real paths
	// still: git, given them, follows a link. The folder a .git file
	// names inside the roots (gitdir: .store) is workspace content, which
	// a command can swap for a link to another repository (mv .store x;
	// ln -s ~/private/.git .store), and the check below takes a folder
	// outside the roots for the owner's and does not read it.
	for _, d := range []string{rp.gitDir, rp.common} {
		if real, err := filepath.EvalSymlinks(d); err == nil && real != d {
			return abi.Errorf(abi.PathDenied, "the repository's folder %s has been replaced by a link since juju started, so git would read another repository as this one; juju's git tools do not read it until the owner puts the folder back", abi.Quote(c.display(d)))
		}
	}
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
	// git joins a relative entry to the object store's real path and
	// resolves the whole as the system does, a ".." after a link leading
	// to the link's target's parent: so does EvalSymlinks, on the joined
	// name left uncleaned (filepath.Join would take the ".." back
	// lexically, to a folder git never reads).
	base, err := filepath.EvalSymlinks(objects)
	if err != nil {
		return nil // git finds no object store there either
	}
	for _, p := range alternateEntries(b) {
		if !filepath.IsAbs(p) {
			p = base + string(filepath.Separator) + p
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

// alternateEntries reads an alternates file as git does
// (parse_alt_odb_entry): up to a NUL byte, where git stops; one entry a
// line, but a line starting with "#" is a comment; an entry starting with
// a double quote is C-quoted when git can unquote it (unquoteC), the rest
// of its line ignored, and otherwise taken as it is, quotes and all.
// Nothing else is trimmed: a carriage return at a line's end is part of
// the name git looks up. Empty entries are left out.
func alternateEntries(b []byte) []string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	s := string(b)
	var out []string
	for len(s) > 0 {
		line, rest, _ := strings.Cut(s, "\n")
		entry := line
		switch {
		case s[0] == '#':
			entry = ""
		case s[0] == '"':
			if u, after, ok := unquoteC(s); ok {
				// The quoted name may span lines; what follows it on
				// its last line is ignored.
				entry = u
				_, rest, _ = strings.Cut(after, "\n")
			}
		}
		if entry != "" {
			out = append(out, entry)
		}
		s = rest
	}
	return out
}

// unquoteC reads the C-quoted string at the start of s as git's
// unquote_c_style does: the escapes \a \b \f \n \r \t \v \\ \" and three
// octal digits, the first 0 to 3; any other escape, or no closing quote,
// fails (ok false). rest is what follows the closing quote.
func unquoteC(s string) (out, rest string, ok bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return b.String(), s[i+1:], true
		case '\\':
			i++
			if i >= len(s) {
				return "", "", false
			}
			switch e := s[i]; e {
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'v':
				b.WriteByte('\v')
			case '\\', '"':
				b.WriteByte(e)
			case '0', '1', '2', '3':
				if i+2 >= len(s) || s[i+1] < '0' || s[i+1] > '7' || s[i+2] < '0' || s[i+2] > '7' {
					return "", "", false
				}
				b.WriteByte((e-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
				i += 2
			default:
				return "", "", false
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", "", false
}

package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// maxLinkScan bounds the entries linkToSecret reads of a server's folder.
const maxLinkScan = 1_000_000

// errScanBound says a server's folder holds more entries than
// linkToSecret reads.
var errScanBound = errors.New("too many entries to check")

// errScanSlow says linkToSecret ran past its context's deadline: a root
// of many links, each followed to its end, takes long (a chain of 39 links
// in a folder 20 deep took 4 ms a link, so 250,000 of them, well under
// maxLinkScan, over fifteen minutes).
var errScanSlow = errors.New("too slow to check")

// rootOf is the workspace root that holds dir (a server's folder,
// absolute and symlink-free), the innermost when roots nest: a server
// reads beyond its folder where its project says (pyright's extraPaths:
// [".."]), so the whole root is checked. dir itself when none holds it.
func (m *Manager) rootOf(dir string) string {
	best := ""
	for _, r := range m.pol.Roots() {
		if policy.Within(dir, r.Real) && len(r.Real) > len(best) {
			best = r.Real
		}
	}
	if best == "" {
		return dir
	}
	return best
}

// linkToSecret walks root (a workspace root, absolute and symlink-free)
// without following links, and past git's own .git folders, and returns
// the first symbolic link of an ordinary name that leads to a secret or to
// juju's own state, inside the roots or outside them, whether or not the
// file is there yet (leadsToSecret); "" when there is none. It stops with
// errScanSlow once ctx is done, or errScanBound past maxLinkScan entries. A server
// reads the workspace itself and follows such a link: a repository that
// ships env.py linked to .env has pyright parse the owner's .env as
// Python, and its reports on a file juju shows (reveal_type, a type
// error) quote the values, naming no other file. A link to a denied file
// adds nothing (the server compiles that file itself, a documented
// limit), and a link to an ordinary file outside the roots (a venv's
// python) is left alone.
func (m *Manager) linkToSecret(ctx context.Context, root string) (string, error) {
	dirs := []string{root}
	n := 0
	res := newResolver()
	for len(dirs) > 0 {
		dir := dirs[len(dirs)-1]
		dirs = dirs[:len(dirs)-1]
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // gone or unreadable: the server cannot read it either
		}
		for _, e := range entries {
			if n++; n > maxLinkScan {
				return "", errScanBound
			}
			isLink := e.Type()&os.ModeSymlink != 0
			if (isLink || n%4096 == 0) && ctx.Err() != nil {
				// Each link is followed to its end, which may take long.
				return "", fmt.Errorf("%w: %w", errScanSlow, ctx.Err())
			}
			p := filepath.Join(dir, e.Name())
			switch {
			case isLink:
				res.known(dir)
				if m.leadsToSecret(p, res) {
					return p, nil
				}
			case e.IsDir() && e.Name() != ".git":
				dirs = append(dirs, p)
			}
		}
	}
	return "", nil
}

// leadsToSecret reports whether the symbolic link p, under an ordinary
// name, leads to a secret or to juju's own state: the path it ends at,
// as the kernel resolves it or (when it is not there yet) as written, is
// judged by the policy's name rules, from its root inside the roots and
// by its whole path outside them. A link whose own name is a secret (.env
// to .env.local, cert.pem to a CA bundle) is left alone: a server reads
// it under that name, as no source file.
func (m *Manager) leadsToSecret(p string, res *resolver) bool {
	if m.withheld(p) {
		return false
	}
	var ends []string
	if r, ok := res.eval(p); ok {
		ends = append(ends, r)
	}
	if e := res.linkEnd(p); len(ends) == 0 || e != ends[0] {
		ends = append(ends, e)
	}
	for _, t := range ends {
		if m.withheld(t) {
			return true
		}
	}
	return false
}

// withheld reports whether the name rules make the absolute path p a
// secret or juju's own: from the root it lies in, or by its whole path
// when it lies in none.
func (m *Manager) withheld(p string) bool {
	for _, r := range m.pol.Roots() {
		for _, base := range []string{r.Real, r.Path} {
			if policy.Within(p, base) {
				rel, err := filepath.Rel(base, p)
				if err != nil {
					return false
				}
				e := m.pol.Check(r, filepath.ToSlash(rel))
				return e != nil && e.Code == abi.SecretDenied
			}
		}
	}
	return m.pol.SecretOutside(p)
}

// resolver resolves links as filepath.EvalSymlinks does, for one walk,
// keeping what it found: a path whose folder is link-free (real) and
// whose last name is resolved once, not again for each link that passes
// through it (in a pnpm node_modules, thousands of links lead into the
// same .pnpm folders, and EvalSymlinks from the top for each cost an lstat
// per name of every one). What changes while the walk runs is not seen
// again, as a walk never saw it either.
type resolver struct {
	real map[string]string // real folder + name: where it ends, real
}

// maxResolved bounds the paths a resolver keeps; past it it keeps no more
// and resolves the rest each time.
const maxResolved = 1 << 18

func newResolver() *resolver { return &resolver{real: map[string]string{}} }

// known notes that dir, a folder of the walk, is real: the walk starts
// at a real root and enters no link.
func (r *resolver) known(dir string) {
	if len(r.real) < maxResolved {
		r.real[dir] = dir
	}
}

// eval is filepath.EvalSymlinks(p) for an absolute p: its links resolved
// name by name as the kernel does, a ".." taking the folder above the
// one reached so far, up to 255 links; false when it does not resolve.
func (r *resolver) eval(p string) (string, bool) {
	if filepath.Separator != '/' || !filepath.IsAbs(p) {
		// Volumes and other separators: as the library does it.
		e, err := filepath.EvalSymlinks(p)
		return e, err == nil
	}
	hops := 0
	return r.from("/", p, &hops)
}

// from resolves path from the real folder dest (path relative, or
// absolute to start from the top).
func (r *resolver) from(dest, path string, hops *int) (string, bool) {
	if filepath.IsAbs(path) {
		dest = "/"
	}
	for path != "" {
		var comp string
		comp, path, _ = strings.Cut(path, "/")
		switch comp {
		case "", ".":
			continue
		case "..":
			dest = filepath.Dir(dest)
			continue
		}
		next := filepath.Join(dest, comp)
		if v, ok := r.real[next]; ok {
			dest = v
			continue
		}
		fi, err := os.Lstat(next)
		if err != nil {
			return "", false
		}
		end := next
		if fi.Mode()&os.ModeSymlink != 0 {
			if *hops++; *hops > 255 {
				return "", false
			}
			t, err := os.Readlink(next)
			if err != nil {
				return "", false
			}
			var ok bool
			if end, ok = r.from(dest, t, hops); !ok {
				return "", false
			}
		}
		if len(r.real) < maxResolved {
			r.real[next] = end
		}
		dest = end
	}
	return dest, true
}

// linkEnd follows the link p, as the kernel would, to the path it ends
// at, which need not exist.
func (r *resolver) linkEnd(p string) string {
	for range 40 {
		if v, ok := r.real[p]; ok && v == p {
			break // resolved before, to itself: no link
		}
		t, err := os.Readlink(p)
		if err != nil {
			break // not a link, or not there: p is the end
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(r.realDir(filepath.Dir(p)), t)
		}
		p = filepath.Clean(t)
	}
	return filepath.Join(r.realDir(filepath.Dir(p)), filepath.Base(p))
}

// realDir is dir with its links resolved, or dir when it does not resolve.
func (r *resolver) realDir(dir string) string {
	if d, ok := r.eval(dir); ok {
		return d
	}
	return dir
}

// displayOf is the path p (absolute) as the model sees it.
func (m *Manager) displayOf(p string) string {
	for _, r := range m.pol.Roots() {
		for _, base := range []string{r.Real, r.Path} {
			if rel, err := filepath.Rel(base, p); err == nil && policy.Within(p, base) {
				return m.pol.Display(r, filepath.ToSlash(rel))
			}
		}
	}
	return p
}

package fs

import (
	"context"
	iofs "io/fs"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// Defaults of ScanOptions.
const (
	DefaultScanDepth = 16
	DefaultScanFiles = 200_000
)

// ScanOptions bound a Scan.
type ScanOptions struct {
	// MaxDepth is how many folders deep below the base the walk goes
	// (DefaultScanDepth when 0).
	MaxDepth int
	// MaxFiles stops the walk after this many files (DefaultScanFiles when 0).
	MaxFiles int
	// Skip names folders never entered, wherever they are (dependency and
	// build folders: node_modules, vendor, target …). .git is always skipped.
	Skip []string
	// SkipGlobs are globs of one folder name ("testdata", ".*"): a folder
	// whose name one matches is not entered either.
	SkipGlobs []string
}

// ScanFile is one regular file a Scan met.
type ScanFile struct {
	Path string // display path (relative to the first root)
	Rel  string // path relative to its own root
	Name string // base name
	Dir  string // display path of its folder ("." for the base)
	Size int64
	// Info is the walk's lstat of it, relative to its folder's
	// descriptor: a reader opens the file only if it is still this one
	// (policy.Root.OpenListed).
	Info iofs.FileInfo
}

// Scan walks the folder path through the policy like the glob host
// function does — folders opened from their parent, never through a
// symlink, .gitignore respected, hidden and secret names withheld — and
// calls visit for every regular file, in one goroutine, in no promised
// order. Names that are not UTF-8 are left out, folders with all they
// hold: no path can name them. Symlinks are neither followed nor reported. It returns whether
// the walk stopped at a bound. Callers are host functions that hold the
// capability their plugin was granted (fs.read at least).
func Scan(ctx context.Context, pol *policy.Policy, path string, opts ScanOptions, visit func(ScanFile)) (truncated bool, e *abi.Error) {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultScanDepth
	}
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = DefaultScanFiles
	}
	if path == "" {
		path = "."
	}
	r, e := pol.Resolve(path)
	if e != nil {
		return false, e
	}
	if !r.Info.IsDir() {
		return false, notAFolder(r, "pass a folder")
	}
	if slices.Contains(strings.Split(r.Rel, "/"), ".git") {
		return false, abi.Errorf(abi.PathDenied, "%q is inside .git, which is never walked; pass a folder of the work tree", r.Display)
	}
	d, e := openWalk(pol, r)
	if e != nil {
		return false, e
	}
	s := &scan{ctx: ctx, pol: pol, root: r.Root, opts: opts, visit: visit}
	s.walk(d, r.Rel, loadIgnores(r.Root, r.Rel), 0)
	return s.truncated, s.err
}

type scan struct {
	ctx       context.Context
	pol       *policy.Policy
	root      *policy.Root
	opts      ScanOptions
	visit     func(ScanFile)
	files     int
	truncated bool // a bound left files out
	full      bool // MaxFiles reached: the walk stops
	err       *abi.Error
}

// walk visits the folder d, root-relative rel, and closes it.
func (s *scan) walk(d walkDir, rel string, ign ignoreStack, depth int) {
	defer d.Close()
	if s.err != nil || s.full {
		return
	}
	if e := canceled(s.ctx); e != nil {
		s.err = e
		return
	}
	ents, ign, ok := readFolder(d, rel, ign, true)
	if !ok {
		return
	}
	display := s.pol.Display(s.root, rel)
	var dirs []string
	for _, de := range ents {
		name, typ := de.name, de.typ
		erel := joinRel(rel, name)
		if !utf8.ValidString(name) {
			// No path through juju can name it (the policy refuses
			// one that is not UTF-8), and its display form, with
			// U+FFFD, names another file: left out, with all below.
			continue
		}
		if name == ".git" || s.pol.Hidden(s.root, erel) || ign.ignored(erel, typ.IsDir()) {
			continue
		}
		switch {
		case typ.IsDir():
			if !slices.Contains(s.opts.Skip, name) && !matchesAny(s.opts.SkipGlobs, name) {
				dirs = append(dirs, name)
			}
		case typ.IsRegular():
			if s.files >= s.opts.MaxFiles {
				s.truncated, s.full = true, true
				return
			}
			info, err := d.Lstat(name)
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			s.files++
			s.visit(ScanFile{Path: s.pol.Display(s.root, erel), Rel: erel, Name: name, Dir: display, Size: info.Size(), Info: info})
			// A folder may hold many files, and visit costs what the
			// caller makes it (discover matches each against every
			// discoverer's globs): the deadline is checked within a
			// folder too.
			if s.files%scanCheckEvery == 0 {
				if e := canceled(s.ctx); e != nil {
					s.err = e
					return
				}
			}
		}
	}
	if len(dirs) > 0 && depth >= s.opts.MaxDepth {
		// Only the folders below are left out: the walk goes on with
		// this folder's siblings, which one deep branch (a Java
		// package's folders) stopped before.
		s.truncated = true
		return
	}
	for _, name := range dirs {
		if child, err := d.Child(name); err == nil {
			s.walk(child, joinRel(rel, name), ign, depth+1)
		}
	}
}

// scanCheckEvery is how many files a Scan visits between two looks at
// its context.
const scanCheckEvery = 256

// matchesAny reports whether name matches one of the globs.
func matchesAny(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, name); ok {
			return true
		}
	}
	return false
}

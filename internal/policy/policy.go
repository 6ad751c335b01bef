package policy

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
)

// Config is what the owner's configuration says about paths. It is read once
// by New; changing it afterwards has no effect.
type Config struct {
	// Roots are the workspace roots as given: absolute, or relative to the
	// current directory. At least one. The first is the one relative paths
	// start from.
	Roots []string
	// Deny holds extra deny globs (doublestar, matched against
	// root-relative slash paths, ignoring case; a glob without a slash
	// matches a name at any depth). A denied path, and anything inside a
	// denied folder, is PATH_DENIED.
	Deny []string
	// Secrets holds extra secret globs, matched like Deny; they extend
	// DefaultSecrets, which cannot be shrunk. A secret is SECRET_DENIED.
	Secrets []string
	// Private holds juju's own folders (state, config, data, cache) and
	// files (the config file read, the log file): they and anything inside
	// them are SECRET_DENIED, wherever they are.
	Private []string
}

// Root is one workspace root.
type Root struct {
	// Path is the root as given, made absolute and cleaned.
	Path string
	// Real is Path with every symlink evaluated.
	Real string
	// OS is the root opened as an *os.Root; every file operation of the
	// policy goes through it.
	OS *os.Root

	dir        *os.File // the root's folder, for openat2 (Linux)
	dirfd      int      // its descriptor
	index      int      // position in Config.Roots (after duplicates are dropped)
	allPrivate bool     // the root lies inside one of juju's own folders
	private    []string // juju's own folders inside the root, root-relative
}

// Policy is the immutable path policy built by New. It is safe for
// concurrent use.
type Policy struct {
	roots   []*Root
	private []string // every spelling of juju's own folders, absolute
	secrets globSet
	deny    globSet
	// The globs as given: the defaults and the owner's secrets, the deny
	// globs (Secrets, Deny).
	secretGlobs, denyGlobs []string
}

// New validates cfg and opens the roots. The caller closes the Policy when
// done with it.
func New(cfg Config) (*Policy, error) {
	if len(cfg.Roots) == 0 {
		return nil, errors.New("policy: at least one workspace root is needed")
	}
	p := &Policy{
		secretGlobs: append(DefaultSecrets(), cfg.Secrets...),
		denyGlobs:   append([]string(nil), cfg.Deny...),
	}
	for _, s := range defaultSecrets {
		if err := p.secrets.add(s); err != nil {
			return nil, fmt.Errorf("policy: default secrets: %w", err)
		}
	}
	for _, s := range cfg.Secrets {
		if err := p.secrets.add(s); err != nil {
			return nil, fmt.Errorf("policy: secrets: %w", err)
		}
	}
	for _, s := range cfg.Deny {
		if err := p.deny.add(s); err != nil {
			return nil, fmt.Errorf("policy: deny: %w", err)
		}
	}
	private, err := privateSpellings(cfg.Private)
	if err != nil {
		return nil, err
	}
	p.private = private
	for _, given := range cfg.Roots {
		r, err := openRoot(given)
		if err != nil {
			p.Close()
			return nil, err
		}
		if p.duplicate(r) {
			r.OS.Close()
			if r.dir != nil {
				r.dir.Close()
			}
			continue
		}
		r.index = len(p.roots)
		r.setPrivate(private)
		p.roots = append(p.roots, r)
	}
	return p, nil
}

func openRoot(given string) (*Root, error) {
	if given == "" {
		return nil, errors.New("policy: empty workspace root")
	}
	abs, err := filepath.Abs(given)
	if err != nil {
		return nil, fmt.Errorf("policy: root %q: %w", given, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("policy: root %q: %w", given, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("policy: root %q: %w", given, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("policy: root %q is not a folder", given)
	}
	osr, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("policy: root %q: %w", given, err)
	}
	r := &Root{Path: abs, Real: real, OS: osr, dirfd: -1}
	if dir, err := osr.Open("."); err == nil {
		r.dir, r.dirfd = dir, int(dir.Fd())
	}
	return r, nil
}

func (p *Policy) duplicate(r *Root) bool {
	for _, o := range p.roots {
		if o.Real == r.Real {
			return true
		}
	}
	return false
}

// privateSpellings returns every spelling of juju's own folders: as given
// (absolute, cleaned) and with the symlinks of their longest existing prefix
// evaluated, so that a folder not created yet is covered too.
func privateSpellings(dirs []string) ([]string, error) {
	var out []string
	for _, d := range dirs {
		if d == "" {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("policy: private folder %q: %w", d, err)
		}
		out = append(out, abs)
		if real := evalExisting(abs); real != abs {
			out = append(out, real)
		}
	}
	return out, nil
}

// evalExisting evaluates the symlinks of the longest existing prefix of abs
// and appends the rest unchanged.
func evalExisting(abs string) string {
	rest := ""
	for cur := abs; ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

func (r *Root) setPrivate(private []string) {
	for _, priv := range private {
		for _, s := range []string{r.Path, r.Real} {
			if Within(s, priv) {
				r.allPrivate = true
			} else if Within(priv, s) {
				rel, err := filepath.Rel(s, priv)
				if err == nil {
					r.private = append(r.private, filepath.ToSlash(rel))
				}
			}
		}
	}
}

// Within reports whether the absolute, clean path p is dir or lies under it.
func Within(p, dir string) bool {
	if p == dir {
		return true
	}
	if dir == string(filepath.Separator) {
		return strings.HasPrefix(p, dir)
	}
	return strings.HasPrefix(p, dir) && p[len(dir)] == filepath.Separator
}

// Close closes every root.
func (p *Policy) Close() error {
	var errs []error
	for _, r := range p.roots {
		errs = append(errs, r.OS.Close())
		if r.dir != nil {
			errs = append(errs, r.dir.Close())
		}
	}
	return errors.Join(errs...)
}

// Roots returns the workspace roots, the first one first.
func (p *Policy) Roots() []*Root {
	return append([]*Root(nil), p.roots...)
}

// Display returns the path the model sees for rel inside root: relative to
// the first root, absolute (under the root as given) for the others.
func (p *Policy) Display(root *Root, rel string) string {
	if rel == "" {
		rel = "."
	}
	if root.index == 0 {
		return rel
	}
	return filepath.Join(root.Path, filepath.FromSlash(rel))
}

// Secret reports whether the root-relative path rel, or a folder above it,
// matches a secret glob. It does not know about juju's own folders: Check
// does.
func (p *Policy) Secret(rel string) bool {
	return p.secrets.match(cleanRel(rel))
}

// Denied reports whether rel, or a folder above it, matches a deny glob.
func (p *Policy) Denied(rel string) bool {
	return p.deny.match(cleanRel(rel))
}

// Check applies the name rules to rel inside root and every folder above
// it: juju's own folders and secrets are SECRET_DENIED, deny globs
// PATH_DENIED. It returns nil when the path is visible.
func (p *Policy) Check(root *Root, rel string) *abi.Error {
	rel = cleanRel(rel)
	switch {
	case root.isPrivate(rel):
		return privateError(p.Display(root, rel))
	case p.secrets.match(rel):
		return secretError(p.Display(root, rel))
	case p.deny.match(rel):
		return deniedError(p.Display(root, rel))
	}
	return nil
}

// Hidden reports whether a listing or a walk must withhold rel, a direct
// entry of a folder that is itself visible. It is the per-entry half of
// Check, cheap enough to call for every file of a large tree.
func (p *Policy) Hidden(root *Root, rel string) bool {
	return root.isPrivate(rel) || p.secrets.matchOne(rel) || p.deny.matchOne(rel)
}

// Withholds is Hidden with the code of the refusal it stands for:
// SECRET_DENIED for a secret or juju's own state, PATH_DENIED for a path the
// owner's deny rules exclude, "" for a visible entry.
func (p *Policy) Withholds(root *Root, rel string) abi.Code {
	switch {
	case root.isPrivate(rel), p.secrets.matchOne(rel):
		return abi.SecretDenied
	case p.deny.matchOne(rel):
		return abi.PathDenied
	}
	return ""
}

// checkOne is Hidden with the error it stands for.
func (p *Policy) checkOne(root *Root, rel string) *abi.Error {
	switch {
	case root.isPrivate(rel):
		return privateError(p.Display(root, rel))
	case p.secrets.matchOne(rel):
		return secretError(p.Display(root, rel))
	case p.deny.matchOne(rel):
		return deniedError(p.Display(root, rel))
	}
	return nil
}

func (r *Root) isPrivate(rel string) bool {
	if r.allPrivate {
		return true
	}
	for _, pr := range r.private {
		if pr == "." || rel == pr || (len(rel) > len(pr) && rel[len(pr)] == '/' && strings.HasPrefix(rel, pr)) {
			return true
		}
	}
	return false
}

func cleanRel(rel string) string {
	rel = path.Clean(strings.TrimPrefix(filepath.ToSlash(rel), "/"))
	return rel
}

// Secrets returns every secret glob: the defaults, then the owner's. Tools
// that filter by glob (git's exclusions, ripgrep's) take them from here.
func (p *Policy) Secrets() []string { return append([]string(nil), p.secretGlobs...) }

// Deny returns the owner's deny globs.
func (p *Policy) Deny() []string { return append([]string(nil), p.denyGlobs...) }

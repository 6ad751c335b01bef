package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

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
	bare       bool     // the root is a bare repository (see bareSecret)
	allSecret  bool     // the root lies inside a secret folder (.ssh, .gnupg)
	// above holds the root's spellings (as given, real) as slash paths
	// from the file system's top, when a secret glob with a slash can
	// match across the root's own names (**/.config/gh/hosts.yml, the
	// root at ~/.config): a path of the root is judged so too (setAbove).
	above []string
	// allDenied and denyAbove are allSecret and above for the owner's deny
	// globs that match at any depth (private, **/generated/**): a root
	// given inside a folder they deny is denied whole (setAbove).
	allDenied bool
	denyAbove []string
	nests     []nest // the other roots that hold this one or lie inside it
}

// nest is another root nested with a root: one that holds it (outer), or
// one inside it (inner). A path inside both has a spelling in each, and
// the owner's globs with a slash are written from one root or the other.
type nest struct {
	root *Root
	// prefix is the path of the inner root inside the outer one: the
	// root's own path inside n.root (outer), or n.root's inside the root
	// (inner).
	prefix string
	inner  bool
}

// in returns rel, a path of the root, spelt inside n.root, and whether it
// lies there at all.
func (n *nest) in(rel string) (string, bool) {
	switch {
	case !n.inner && rel == ".":
		return n.prefix, true
	case !n.inner:
		return n.prefix + "/" + rel, true
	case rel == n.prefix:
		return ".", true
	case len(rel) > len(n.prefix) && rel[len(n.prefix)] == '/' && strings.HasPrefix(rel, n.prefix):
		return rel[len(n.prefix)+1:], true
	}
	return "", false
}

// Policy is the immutable path policy built by New. It is safe for
// concurrent use.
type Policy struct {
	roots   []*Root
	private []string // every spelling of juju's own folders, absolute
	secrets globSet
	deny    globSet
	// secretsAnywhere and denyAnywhere hold the secret and deny globs
	// without a slash or starting with **/: those name a folder wherever
	// it lies, a root's own place too. A glob with another slash is a path
	// from a root (build/secrets/**, tmp/**), which a root's place above
	// it is not: matched from the file system's top, tmp/** made every
	// file of a root in /tmp secret.
	secretsAnywhere, denyAnywhere globSet
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
	for _, s := range p.secretGlobs {
		if anywhere(s) {
			_ = p.secretsAnywhere.add(s) // valid: added to secrets above
		}
	}
	for _, s := range cfg.Deny {
		if err := p.deny.add(s); err != nil {
			return nil, fmt.Errorf("policy: deny: %w", err)
		}
		if anywhere(s) {
			_ = p.denyAnywhere.add(s) // valid: added to deny above
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
		r.bare = isBareRepository(r.OS)
		r.allSecret, r.above = r.setAbove(&p.secretsAnywhere)
		r.allDenied, r.denyAbove = r.setAbove(&p.denyAnywhere)
		p.roots = append(p.roots, r)
	}
	p.setNests()
	return p, nil
}

// setNests records, for each root, the roots nested with it, by their real
// paths (a root's Rel is symlink-free, so its real path is Real joined
// with it).
func (p *Policy) setNests() {
	for _, r := range p.roots {
		for _, o := range p.roots {
			var n nest
			switch {
			case o == r:
				continue
			case Within(r.Real, o.Real):
				n = nest{root: o, prefix: r.Real}
			case Within(o.Real, r.Real):
				n = nest{root: o, prefix: o.Real, inner: true}
			default:
				continue
			}
			outer := r.Real
			if !n.inner {
				outer = o.Real
			}
			rel, err := filepath.Rel(outer, n.prefix)
			if err != nil {
				continue
			}
			n.prefix = filepath.ToSlash(rel)
			r.nests = append(r.nests, n)
		}
	}
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
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("policy: root %q: %w: a workspace root must be a folder that exists; create it, or name another", given, err)
	}
	if err != nil {
		return nil, fmt.Errorf("policy: root %q: %w", given, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("policy: root %q: %w", given, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("policy: root %q is not a folder: a workspace root is a folder, such as %q, the one that holds it", given, filepath.Dir(abs))
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

// setPrivate records juju's own folders and files that hold the root or lie
// inside it. Paths are compared ignoring letter case, as the secret and
// deny globs are: on a file system that ignores it (macOS, Windows), a
// root given as ~/library holds ~/Library/Application Support/juju.
func (r *Root) setPrivate(private []string) {
	for _, priv := range private {
		for _, s := range []string{r.Path, r.Real} {
			if withinFold(s, priv) {
				r.allPrivate = true
			} else if rest, ok := cutDirFold(priv, s); ok {
				r.private = append(r.private, filepath.ToSlash(rest))
			}
		}
	}
}

// setAbove judges the root's own location by the globs of g: a root
// inside a folder they match (~/.ssh, ~/.gnupg for the secret globs; a
// folder named by a deny glob such as private) is all (secret or denied
// whole), and a root whose names a glob with a slash can match across (a
// root at ~/.config, where **/.config/gh/hosts.yml is gh/hosts.yml; at
// ~/.aws or a repository's .git) has its paths judged by their whole path
// as well: above holds those spellings (matchAbove). The secret list names
// where tools keep a login in the home folder; a root given as one of
// those folders held them as plain files, and a root given inside a
// folder the owner denies served what the deny glob withholds.
func (r *Root) setAbove(g *globSet) (all bool, above []string) {
	for i, s := range []string{r.Path, r.Real} {
		if i == 1 && s == r.Path {
			break
		}
		abs := strings.TrimPrefix(filepath.ToSlash(strings.TrimPrefix(s, filepath.VolumeName(s))), "/")
		switch {
		case abs == "":
		case g.match(abs):
			all = true
		case g.spans(abs):
			above = append(above, abs)
		}
	}
	return all, above
}

// anywhere reports whether the glob names a path at any depth: it has no
// slash, or starts with **/.
func anywhere(glob string) bool {
	g := strings.TrimSuffix(strings.TrimSpace(glob), "/")
	return !strings.Contains(g, "/") || strings.HasPrefix(g, "**/")
}

// withinFold is Within ignoring letter case.
func withinFold(p, dir string) bool {
	_, ok := cutDirFold(p, dir)
	return ok
}

// cutDirFold returns the path of p inside dir ("." for dir itself), both
// absolute and clean, comparing names ignoring letter case as the globs
// do (fold) and as Unicode folds it, and whether p lies there at all.
func cutDirFold(p, dir string) (string, bool) {
	rest, ok := cutPrefixFold(p, dir)
	switch {
	case !ok:
		return "", false
	case rest == "":
		return ".", true
	case dir == string(filepath.Separator):
		return rest, true
	case rest[0] == filepath.Separator:
		return rest[1:], true
	}
	return "", false
}

// cutPrefixFold is strings.CutPrefix ignoring letter case, rune by rune
// (a folded rune may differ in length: ſ is two bytes, s one).
func cutPrefixFold(s, prefix string) (string, bool) {
	for prefix != "" {
		if s == "" {
			return "", false
		}
		a, na := utf8.DecodeRuneInString(s)
		b, nb := utf8.DecodeRuneInString(prefix)
		if a != b && foldRune(a) != foldRune(b) && !strings.EqualFold(s[:na], prefix[:nb]) {
			return "", false
		}
		s, prefix = s[na:], prefix[nb:]
	}
	return s, true
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

// Gone returns the first root whose folder was deleted since the policy
// opened it, or moved away from its path, and whether it was moved; nil
// while every root's path names the folder opened. Every name juju
// resolves is resolved below the folder it opened, so once that folder is
// deleted nothing resolves any more, whatever stands at its path now (a
// folder deleted and cloned again): a caller answers so rather than with
// the NOT_FOUND, empty listings and partial searches that each lookup
// would give. A folder moved away is still served, but commands, git,
// ripgrep and language servers start in the root's path, where another
// folder, or none, now stands: file tools and commands would each work in
// a different folder. One fstat and one stat per root.
func (p *Policy) Gone() (r *Root, moved bool) {
	for _, r := range p.roots {
		if r.dir == nil {
			continue
		}
		fi, err := r.dir.Stat()
		if err != nil {
			continue
		}
		if links(fi) == 0 {
			return r, false
		}
		now, err := os.Stat(r.Real)
		if errors.Is(err, fs.ErrNotExist) || err == nil && !SameFile(fi, now) {
			return r, true
		}
	}
	return nil, false
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

// SecretOutside reports whether the absolute path abs, which lies in no
// root, is a secret by its whole path: matched by the secret globs that
// name a file or folder at any depth (.env, .gnupg, **/.aws/credentials).
// A glob with another slash is a path from a root (tmp/**), which a path
// from the file system's top is not.
func (p *Policy) SecretOutside(abs string) bool {
	return p.secretsAnywhere.match(cleanRel(strings.TrimPrefix(filepath.ToSlash(abs), "/")))
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
	return p.refusal(p.judge(root, rel, true), p.Display(root, rel))
}

// Hidden reports whether a listing or a walk must withhold rel, a direct
// entry of a folder that is itself visible. It is the per-entry half of
// Check, cheap enough to call for every file of a large tree.
func (p *Policy) Hidden(root *Root, rel string) bool {
	return p.judge(root, rel, false) != visible
}

// Withholds is Hidden with the code of the refusal it stands for:
// SECRET_DENIED for a secret or juju's own state, PATH_DENIED for a path the
// owner's deny rules exclude, "" for a visible entry.
func (p *Policy) Withholds(root *Root, rel string) abi.Code {
	switch p.judge(root, rel, false) {
	case private, secret:
		return abi.SecretDenied
	case denied:
		return abi.PathDenied
	}
	return ""
}

// checkOne is Hidden with the error it stands for.
func (p *Policy) checkOne(root *Root, rel string) *abi.Error {
	return p.refusal(p.judge(root, rel, false), p.Display(root, rel))
}

// verdict is what the name rules say of a path, the stronger the higher.
type verdict uint8

const (
	visible verdict = iota
	denied          // the owner's deny globs: PATH_DENIED
	secret          // a secret glob: SECRET_DENIED
	private         // juju's own folders and files: SECRET_DENIED
)

// judge applies the name rules to rel inside root, and to its spelling in
// every other root that holds it too: a glob with a slash is written from a
// root, and the owner's `build/secrets/**` holds however the path is
// reached, through the outer root or through a root at build. whole checks
// every folder above rel as well; otherwise rel alone (an entry of a folder
// already found visible). The strongest verdict wins.
func (p *Policy) judge(root *Root, rel string, whole bool) verdict {
	v := p.judgeIn(root, rel, whole)
	for i := range root.nests {
		if v == private {
			break
		}
		if o, ok := root.nests[i].in(rel); ok {
			v = max(v, p.judgeIn(root.nests[i].root, o, whole))
		}
	}
	return v
}

// judgeIn is judge for the spelling of the path inside one root. The root
// itself (".") is judged by the names above it, in an outer root.
func (p *Policy) judgeIn(root *Root, rel string, whole bool) verdict {
	if rel == "." {
		switch {
		case root.isPrivate(rel):
			return private
		case root.allSecret:
			return secret
		case root.allDenied:
			return denied
		}
		return visible
	}
	match := (*globSet).matchOne
	if whole {
		match = (*globSet).match
	}
	switch {
	case root.isPrivate(rel):
		return private
	case root.bare && bareSecret(rel, whole), root.storeSecret(rel, whole):
		return secret
	case root.allSecret, match(&p.secrets, rel), matchAbove(root.above, &p.secretsAnywhere, rel, whole):
		return secret
	case root.allDenied, match(&p.deny, rel), matchAbove(root.denyAbove, &p.denyAnywhere, rel, whole):
		return denied
	}
	return visible
}

// refusal is the error of v for the path the model sees as display.
func (p *Policy) refusal(v verdict, display string) *abi.Error {
	switch v {
	case private:
		return privateError(display)
	case secret:
		return secretError(display)
	case denied:
		return deniedError(display)
	}
	return nil
}

// matchAbove reports whether rel matches a glob of g by its whole path
// from the file system's top, spelt from each of above (see setAbove);
// whole as for judgeIn, the root's own folders being known not to match.
func matchAbove(above []string, g *globSet, rel string, whole bool) bool {
	for _, a := range above {
		full := a + "/" + rel
		if !whole {
			if g.matchOne(full) {
				return true
			}
			continue
		}
		for i := len(a) + 1; i < len(full); i++ {
			if full[i] == '/' && g.matchOne(full[:i]) {
				return true
			}
		}
		if g.matchOne(full) {
			return true
		}
	}
	return false
}

func (r *Root) isPrivate(rel string) bool {
	if r.allPrivate {
		return true
	}
	for _, pr := range r.private {
		if pr == "." {
			return true
		}
		if rest, ok := cutPrefixFold(rel, pr); ok && (rest == "" || rest[0] == '/') {
			return true
		}
	}
	return false
}

func cleanRel(rel string) string {
	rel = path.Clean(strings.TrimPrefix(filepath.ToSlash(rel), "/"))
	return rel
}

// Private returns juju's own folders inside the root (its state, config,
// data and cache folders where they lie in it), root-relative with
// slashes, or "." when the root itself lies inside one. Tools that filter
// by path (git's exclusion pathspecs) take them from here.
func (r *Root) Private() []string {
	if r.allPrivate {
		return []string{"."}
	}
	return append([]string(nil), r.private...)
}

// Secrets returns every secret glob: the defaults, then the owner's. Tools
// that filter by glob (git's exclusions, ripgrep's) take them from here.
func (p *Policy) Secrets() []string { return append([]string(nil), p.secretGlobs...) }

// Deny returns the owner's deny globs.
func (p *Policy) Deny() []string { return append([]string(nil), p.denyGlobs...) }

// isBareRepository reports whether the root is a bare repository: a HEAD
// file, objects and refs folders, and no .git.
func isBareRepository(root *os.Root) bool {
	if _, err := root.Lstat(".git"); err == nil {
		return false
	}
	if fi, err := root.Lstat("HEAD"); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	for _, d := range []string{"objects", "refs"} {
		if fi, err := root.Lstat(d); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// bareSecret reports whether rel, in a root that is a bare repository, is
// one of the repository's files that the secret globs hold for a bare
// clone inside a root (**/*.git/config, objects, lfs): its config (a
// remote's URL with its password) and the content of every file it
// stores. Those globs name the clone's folder, which a root has not.
// whole: rel's first name decides; otherwise rel is an entry of a folder
// found visible, and only a name at the root can be one.
func bareSecret(rel string, whole bool) bool {
	first, _, nested := strings.Cut(rel, "/")
	if nested && !whole {
		return false
	}
	return storeName(first)
}

// storeSecret reports whether rel (with whole, or a folder above it) is
// the config, config.worktree, objects, lfs or logs of a git repository's
// folder inside the root that no secret glob names: a bare clone named
// backup, a work tree's git folder made with --separate-git-dir. The
// repository is known by its HEAD, objects and refs, as repositoryAt
// knows it; the root itself is bareSecret's.
func (r *Root) storeSecret(rel string, whole bool) bool {
	i := 0
	if !whole {
		i = strings.LastIndexByte(rel, '/') + 1
	}
	for i > 0 || whole {
		end := strings.IndexByte(rel[i:], '/')
		if end < 0 {
			end = len(rel)
		} else {
			end += i
		}
		if i > 0 && storeName(rel[i:end]) && r.repositoryAt(rel[:i-1]) {
			return true
		}
		if end == len(rel) {
			return false
		}
		i = end + 1
	}
	return false
}

// storeName reports whether name is one of the files and folders of a
// git repository's own folder that bareSecret holds.
func storeName(name string) bool {
	for _, n := range []string{"config", "config.worktree", "objects", "lfs", "logs"} {
		if strings.EqualFold(name, n) {
			return true
		}
	}
	return false
}

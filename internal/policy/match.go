package policy

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"golang.org/x/text/unicode/norm"
)

// DefaultSecrets returns the built-in secret list. Config.Secrets extends
// it; it can never be shrunk.
func DefaultSecrets() []string { return append([]string(nil), defaultSecrets...) }

var defaultSecrets = []string{
	".env", ".env.*", ".envrc",
	"id_rsa*", "id_ed25519*", "id_ecdsa*",
	".ssh",
	"*.pem", "*.key", "*.p12", "*.pfx",
	"credentials.json",
	"**/.aws/credentials",
	".netrc", ".git-credentials", ".pgpass",
	// Package registries' and clusters' client files hold tokens.
	"id_dsa*", ".npmrc", ".pypirc", "**/.kube/config", "**/.docker/config.json",
	// Other tools' logins and private keys, where they keep them: the
	// GitHub CLI's token, git's XDG credential store, cargo's and gem's
	// registry tokens, bundler's gem server logins, PuTTY's and age's
	// private keys, Windows' _netrc, Vault's token, MySQL's client
	// password, Terraform Cloud's, gcloud's, Azure's, s3cmd's, boto's and
	// Databricks' credentials, GnuPG's keyrings, an htpasswd file.
	"**/.config/gh/hosts.yml", "**/.config/git/credentials", "**/.cargo/credentials", "**/.cargo/credentials.toml",
	"**/.gem/credentials", "**/.bundle/config", "*.ppk", "**/.config/sops/age/keys.txt", "_netrc", ".vault-token",
	".my.cnf", "**/.terraform.d/credentials.tfrc.json", "application_default_credentials.json",
	"**/.config/gcloud/credentials.db", "**/.config/gcloud/access_tokens.db", "**/.config/gcloud/legacy_credentials",
	"**/.azure/msal_token_cache.*", "**/.azure/accessTokens.json", ".s3cfg", ".boto", ".databrickscfg", ".gnupg",
	".htpasswd",
	// A repository's configuration holds a remote's URL with its password
	// (https://user:TOKEN@host/…) and CI's http.extraheader with a token:
	// every repository's own (a nested clone's too), its worktrees' and
	// submodules' below its .git, their config.worktree files, and a bare
	// clone's (mirror.git/config). git reads them itself, never through
	// the policy.
	"**/.git/**/config", "**/.git/**/config.worktree",
	"**/*.git/config", "**/*.git/config.worktree",
	// git keeps every committed and staged file's content below .git,
	// secrets' too, where the name rules above never see it: a stopped
	// rebase's patch (rebase-merge/patch, rebase-apply) and a commit made
	// with -v (COMMIT_EDITMSG) hold the commit's diff as text, rerere's
	// cache the text of conflicted files, Git LFS its objects as plain
	// files, and a loose object's name is the SHA-1 of a file's content.
	"**/.git/**/objects", "**/.git/**/lfs", "**/.git/**/rr-cache",
	"**/.git/**/rebase-apply", "**/.git/**/rebase-merge/patch", "**/.git/**/COMMIT_EDITMSG",
	"**/*.git/objects", "**/*.git/lfs",
	// A reflog keeps each update's message as git wrote it, and git pull
	// writes its command line there: "pull https://user:TOKEN@host/…",
	// a remote's password as .git/config holds it.
	"**/.git/**/logs", "**/*.git/logs",
}

// globSet matches root-relative, slash-separated paths against a list of
// globs, ignoring letter case. A glob without a slash is matched against the
// last name of the path; a glob with one is matched against the whole path.
// The common shapes ("name", "*.ext", "prefix*") avoid the glob engine.
type globSet struct {
	exact    map[string]struct{}
	prefixes []string
	suffixes []string
	base     []string
	tails    []string   // "**/a/b": the path is "a/b" or ends in "/a/b"
	full     []fullGlob // other globs with a slash
}

// fullGlob is a glob with a slash. dir is its leading folders without
// wildcards: a matching path is dir or lies under it. tail is its trailing
// text without wildcards (less a leading slash, which a "**/" before it
// may stand in for): a matching path ends with it. The two spare the glob
// engine the paths that cannot match (the default secrets' four
// "**/….git…/config" globs, tried on every entry of every listing).
type fullGlob struct {
	glob, dir, tail string
}

// add compiles one glob into the set.
func (g *globSet) add(pattern string) error {
	p := fold(strings.TrimSpace(pattern))
	p = strings.TrimPrefix(p, "/")
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return fmt.Errorf("empty glob %q", pattern)
	}
	if !doublestar.ValidatePattern(p) {
		return fmt.Errorf("invalid glob %q", pattern)
	}
	const meta = `*?[]{}\`
	if strings.Contains(p, "/") {
		if rest, ok := strings.CutPrefix(p, "**/"); ok && !strings.ContainsAny(rest, meta) {
			g.tails = append(g.tails, rest)
			return nil
		}
		lit := p
		if i := strings.IndexAny(p, meta); i >= 0 {
			lit = p[:i]
		}
		dir := ""
		if i := strings.LastIndexByte(lit, '/'); i >= 0 {
			dir = lit[:i]
		}
		if !strings.ContainsAny(p, meta) {
			dir = p
		}
		tail := strings.TrimPrefix(p[strings.LastIndexAny(p, meta)+1:], "/")
		g.full = append(g.full, fullGlob{glob: p, dir: dir, tail: tail})
		return nil
	}
	switch {
	case !strings.ContainsAny(p, meta):
		if g.exact == nil {
			g.exact = map[string]struct{}{}
		}
		g.exact[p] = struct{}{}
	case p[0] == '*' && len(p) > 1 && !strings.ContainsAny(p[1:], meta):
		g.suffixes = append(g.suffixes, p[1:])
	case p[len(p)-1] == '*' && len(p) > 1 && !strings.ContainsAny(p[:len(p)-1], meta):
		g.prefixes = append(g.prefixes, p[:len(p)-1])
	default:
		g.base = append(g.base, p)
	}
	return nil
}

// fold is s in lower case as file systems that ignore case fold it:
// strings.ToLower, which makes the Kelvin sign k, and ſ (U+017F), already
// lower case but upper-cased to S, made s, and ı made i (foldRune). A file
// system that ignores case opens a secret by either spelling, so the
// globs match both. A name that is not ASCII is then composed (NFC): é
// typed as one character and as e with a combining accent are one name to
// macOS, which opens a file by either, and to the owner who wrote a glob
// in one and has a folder in the other (names decomposed by macOS, copied
// to Linux as they were). It copies nothing when s has nothing to fold.
func fold(s string) string {
	s = strings.Map(foldRune, s)
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return norm.NFC.String(s)
		}
	}
	return s
}

// foldRune is unicode.ToLower, and ſ made s and ı (U+0131, which NTFS
// upper-cases to I) made i.
func foldRune(r rune) rune {
	switch r {
	case 'ſ':
		return 's'
	case 'ı':
		return 'i'
	}
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(r)
}

// matchOne reports whether rel itself (not a folder above it) matches,
// or a copy of it an editor or a merge tool keeps beside it does (copyOf):
// Emacs's .env~ holds what .env held before its last save. Every
// comparison is made on rel folded (fold), whose length may differ from
// rel's.
func (g *globSet) matchOne(rel string) bool {
	rel = fold(rel)
	for range 4 {
		if g.matchFolded(rel) {
			return true
		}
		dir, name := "", rel
		if i := strings.LastIndexByte(rel, '/'); i >= 0 {
			dir, name = rel[:i+1], rel[i+1:]
		}
		orig, ok := copyOf(name)
		if !ok {
			return false
		}
		rel = dir + orig
	}
	return false
}

// copySuffixes end the name of a copy of a file that editors and tools
// keep beside it: backups (Emacs, gedit, Kate: "~"; ".bak", ".old"), what
// git mergetool and patch leave (".orig"), and nano's file saved on a
// crash (".save"), and the IDE's safe write of JetBrains ("___jb_old___",
// "___jb_tmp___": the old content and the new, beside the file).
var copySuffixes = []string{"~", ".bak", ".old", ".orig", ".save", "___jb_old___", "___jb_tmp___"}

// copyOf is the name of the file name (folded) is a copy of: name less a
// copy suffix, Emacs's auto-save "#name#", vim's swap file ".name.swp"
// (.swo … .swa for more at once), Kate's swap file ".name.kate-swp", or
// a numbered backup "name.~N~" (Emacs with version-control, cp and mv
// --backup=numbered). ok is false when name is none of those, or nothing
// is left.
func copyOf(name string) (orig string, ok bool) {
	switch n := len(name); {
	case n > 2 && name[0] == '#' && name[n-1] == '#':
		return name[1 : n-1], true
	case n > 5 && name[0] == '.' && name[n-4:n-1] == ".sw" && 'a' <= name[n-1] && name[n-1] <= 'p':
		return name[1 : n-4], true
	case n > 10 && name[0] == '.' && strings.HasSuffix(name, ".kate-swp"):
		return name[1 : n-9], true
	}
	if orig, ok := numberedBackupOf(name); ok {
		return orig, true
	}
	for _, s := range copySuffixes {
		if len(name) > len(s) && strings.HasSuffix(name, s) {
			return name[:len(name)-len(s)], true
		}
	}
	return "", false
}

// numberedBackupOf is name less a numbered backup's ".~N~".
func numberedBackupOf(name string) (string, bool) {
	if !strings.HasSuffix(name, "~") {
		return "", false
	}
	i := strings.LastIndex(name[:len(name)-1], ".~")
	if i <= 0 {
		return "", false
	}
	if digits := name[i+2 : len(name)-1]; digits == "" || strings.Trim(digits, "0123456789") != "" {
		return "", false
	}
	return name[:i], true
}

// matchFolded is matchOne for rel already folded, without copies.
func (g *globSet) matchFolded(rel string) bool {
	name := rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		name = rel[i+1:]
	}
	if _, ok := g.exact[name]; ok {
		return true
	}
	for _, s := range g.suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	for _, s := range g.prefixes {
		if strings.HasPrefix(name, s) {
			return true
		}
	}
	for _, b := range g.base {
		if ok, _ := doublestar.Match(b, name); ok {
			return true
		}
	}
	for _, t := range g.tails {
		if n := len(rel) - len(t); n >= 0 && rel[n:] == t && (n == 0 || rel[n-1] == '/') {
			return true
		}
	}
	for _, f := range g.full {
		if d := f.dir; d != "" && !(strings.HasPrefix(rel, d) && (len(rel) == len(d) || rel[len(d)] == '/')) {
			continue
		}
		if !strings.HasSuffix(rel, f.tail) {
			continue
		}
		if ok, _ := doublestar.Match(f.glob, rel); ok {
			return true
		}
	}
	return false
}

// spans reports whether a glob with a slash has a name, other than **,
// that one of abs's names matches: a path below abs may then match it
// across abs's names, which a path from a root inside abs does not show.
func (g *globSet) spans(abs string) bool {
	var segs []string
	for _, t := range g.tails {
		segs = append(segs, strings.Split(t, "/")...)
	}
	for _, f := range g.full {
		segs = append(segs, strings.Split(f.glob, "/")...)
	}
	for name := range strings.SplitSeq(fold(abs), "/") {
		for _, s := range segs {
			if s == "**" {
				continue
			}
			if ok, _ := doublestar.Match(s, name); ok {
				return true
			}
		}
	}
	return false
}

// match reports whether rel or any folder above it matches.
func (g *globSet) match(rel string) bool {
	if rel == "." || rel == "" {
		return false
	}
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' && g.matchOne(rel[:i]) {
			return true
		}
	}
	return g.matchOne(rel)
}

// GlobsBelow returns, for the absolute folder dir, the globs from dir
// that a path below it must match for its whole path to match one of
// globs with a slash (a glob without one applies at any depth anyway):
// below ~/.config, **/.config/gh/hosts.yml is gh/hosts.yml, and below a
// repository's .git, **/.git/**/config is **/config. A tool that matches
// paths from dir and not from the file system's top (git's pathspecs,
// from a repository's top) adds them. It returns ** when dir itself
// lies inside what a glob matches. Globs are folded as the policy folds
// them; a brace group across a slash is not followed. Only the globs that
// match at any depth (anywhere) are taken: another glob with a slash is a
// path from a root, which dir's place is not (tmp/** has git see nothing
// of a repository in /tmp).
func GlobsBelow(globs []string, dir string) []string {
	abs := strings.Trim(filepath.ToSlash(strings.TrimPrefix(dir, filepath.VolumeName(dir))), "/")
	if abs == "" {
		return nil
	}
	globs = slices.DeleteFunc(slices.Clone(globs), func(g string) bool { return !anywhere(g) })
	var set globSet
	for _, g := range globs {
		if set.add(g) != nil {
			continue
		}
	}
	if set.match(abs) {
		return []string{"**"}
	}
	names := strings.Split(fold(abs), "/")
	var out []string
	for _, g := range globs {
		g = strings.Trim(fold(strings.TrimSpace(g)), "/")
		if !strings.Contains(g, "/") {
			continue
		}
		segs := strings.Split(g, "/")
		// closure adds, for each state before a **, the state after it
		// (** matching no name).
		closure := func(states map[int]bool) map[int]bool {
			for i := 0; i < len(segs); i++ {
				if states[i] && segs[i] == "**" {
					states[i+1] = true
				}
			}
			return states
		}
		states := closure(map[int]bool{0: true})
		for _, name := range names {
			next := map[int]bool{}
			for s := range states {
				switch {
				case s == len(segs):
				case segs[s] == "**":
					next[s] = true
				default:
					if ok, _ := doublestar.Match(segs[s], name); ok {
						next[s+1] = true
					}
				}
			}
			states = closure(next)
		}
		for s := range states {
			rest := strings.Join(segs[s:], "/")
			switch {
			case rest == "" || rest == "**":
				return []string{"**"}
			case s == 0 || (s == 1 && segs[0] == "**"), slices.Contains(out, rest):
			case segs[s-1] == "**" && states[s-1]: // **/rest is there too
			default:
				out = append(out, rest)
			}
		}
	}
	slices.Sort(out)
	return out
}

package lsp

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
)

// A diagnostic's message is the server's text, and a server may quote any
// file it reads: gopls runs cgo, which runs the C compiler on a Go file's
// preamble, and a preamble can #include .env or ~/.aws/credentials — the
// compiler's errors then quote their lines ("./.env:1:1: error: …  1 |
// DB_PASSWORD=…"), reported on the Go file. A location is filtered by where
// it points (places.file); a message is filtered by the places it names,
// and fails closed:
//
//   - A line that begins with a place, as compilers write them ("NAME:LINE:
//     ", "NAME:LINE:COL: ", "In file included from NAME:LINE:", "   from
//     NAME:LINE,"), names a file however odd its name: spaces, quotes,
//     colons. Every way of reading the line's start as NAME is tried. The
//     line is kept only when at least one NAME is found on the file system
//     and every NAME found is a file juju would show.
//   - A place inside a line ("(see a.go:2:9)") that is found must be a file
//     juju would show.
//   - A source excerpt ("  1 | text") with no place line before it quotes
//     a file juju cannot name: withheld.
//
// A NAME is looked up the way the compiler opened it — by the kernel, from
// the folder of the file asked about (the compiler's working folder under
// cgo) and from the server's root (where the go command shortens names
// to) — never cleaned first: "lnk/../x" is x beside lnk's target, not
// beside lnk. A file juju would show is one of the roots that the path
// policy lets read_file read, or one in a system or toolchain folder
// whose name no secret rule matches.

// maxQuotedNames bounds the names one message is checked for: each costs
// a few system calls. A compiler error names a handful (the place and its
// include chain); a message naming more is withheld rather than checked.
const maxQuotedNames = 64

// quotedPlace finds file:line inside a line: a path (with a slash or a dot
// in it) followed by a colon and a number.
var quotedPlace = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s'"(\[<{,])((?:[A-Za-z]:)?[^\s'"()\[\]<>{},:]*[./\\][^\s'"()\[\]<>{},:]*):[0-9]+`)
})

// placeLead is what precedes the name on a line of an include chain.
var placeLead = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:In file included from |\s+from )`) })

// placeEnd is what follows a NAME at the start of a place line: a line
// number, maybe a column, then a colon or comma and a space or the end.
var placeEnd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^:[0-9]+(?::[0-9]+)?[:,](?:\s|$)`) })

// excerptLine is a line of a compiler's source excerpt: "  12 | text" or
// the marker line under it, "     | ^~~~".
var excerptLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*[0-9]*\s\|(?:\s|$)`) })

// systemPlaces are folders outside the roots whose files a message may
// quote: the system's headers and libraries, toolchains and module caches,
// each as given and with its links resolved.
func systemPlaces() []string {
	places := []string{"/usr", "/lib", "/lib64", "/opt", "/nix/store", runtime.GOROOT()}
	for _, env := range []string{"GOROOT", "GOMODCACHE"} {
		if v := os.Getenv(env); v != "" {
			places = append(places, v)
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		places = append(places, filepath.Join(home, "go", "pkg", "mod"))
	}
	var out []string
	for _, p := range places {
		if p == "" || !filepath.IsAbs(p) {
			continue
		}
		out = append(out, filepath.Clean(p))
		if real, err := filepath.EvalSymlinks(p); err == nil && real != filepath.Clean(p) {
			out = append(out, real)
		}
	}
	return out
}

// withheldQuote returns what a message about the file abs quotes that juju
// does not show ("" when nothing): its display name, its path outside the
// roots, or that juju could not place it.
func (p *places) withheldQuote(abs, msg string) string {
	q := quoteCheck{p: p, bases: []string{filepath.Dir(abs), p.c.root}}
	placed := false // a place line came before: an excerpt belongs to it
	for _, line := range strings.Split(msg, "\n") {
		if names := placeNames(line); len(names) > 0 {
			found := false
			for _, name := range names {
				ok, why := q.check(name)
				if why != "" {
					return why
				}
				found = found || ok
			}
			if !found {
				return "a file juju could not find, so cannot tell what it is"
			}
			placed = true
			continue
		}
		if excerptLine().MatchString(line) && !placed {
			return "source text of a file it does not name"
		}
		for _, m := range quotedPlace().FindAllStringSubmatch(line, -1) {
			if _, why := q.check(m[1]); why != "" {
				return why
			}
		}
	}
	return ""
}

// placeNames returns every reading of NAME in a line that begins with a
// place: the text before each ":LINE[:COL][:,]" that ends in a space or
// the line's end. None: the line does not begin with a place.
func placeNames(line string) []string {
	rest := placeLead().ReplaceAllString(line, "")
	var names []string
	for i := 1; i < len(rest); i++ {
		if rest[i] == ':' && placeEnd().MatchString(rest[i:]) {
			names = append(names, rest[:i])
		}
	}
	return names
}

// quoteCheck looks up the names one message quotes.
type quoteCheck struct {
	p     *places
	bases []string // the folders a relative name is looked up from
	n     int      // names looked up so far
}

// check looks name up from each base. found: it names a file there. why
// (non-empty): it names one juju does not show, or too many names came.
func (q *quoteCheck) check(name string) (found bool, why string) {
	if q.n++; q.n > maxQuotedNames {
		return false, "more files than juju checks in one message"
	}
	paths := []string{name}
	if !filepath.IsAbs(name) {
		paths = paths[:0]
		for _, b := range q.bases {
			paths = append(paths, b+string(filepath.Separator)+name) // not Join: it cleans
		}
	}
	for _, path := range paths {
		seen, ok := q.p.quoted[path]
		if !ok {
			seen = q.p.lookUp(path, name)
			q.p.quoted[path] = seen
		}
		if seen.why != "" {
			return true, seen.why
		}
		found = found || seen.found
	}
	return found, ""
}

// lookedUp is what a path a message names was found to be.
type lookedUp struct {
	found bool
	why   string // non-empty: withheld, and why
}

// lookUp looks path up as the kernel does (links before ".."), and checks
// that its real path names the same file before it asks the policy.
func (p *places) lookUp(path, name string) lookedUp {
	fi, err := os.Stat(path)
	if err != nil {
		return lookedUp{}
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return lookedUp{true, "a file juju could not place (" + name + ")"}
	}
	if rfi, err := os.Stat(real); err != nil || !os.SameFile(fi, rfi) {
		return lookedUp{true, "a file juju could not place (" + name + ")"}
	}
	return lookedUp{true, p.withheldFile(real, fi)}
}

// withheldFile says whether a message may quote the file whose real path
// (links resolved) is real: "" when it may (a file of the roots the policy
// lets be read, or a system file whose name is no secret's), else how to
// name it.
func (p *places) withheldFile(real string, fi os.FileInfo) string {
	for _, r := range p.m.pol.Roots() {
		if !within(real, r.Real) {
			continue
		}
		res, e := p.m.pol.Resolve(real)
		if e == nil && fi.Mode().IsRegular() {
			var f interface{ Close() error }
			if f, _, e = p.m.pol.OpenRead(res); e == nil {
				f.Close()
			}
		}
		if e != nil {
			return "a secret or denied file of the workspace"
		}
		return ""
	}
	for _, s := range p.m.system {
		if !within(real, s) {
			continue
		}
		// A system folder holds no secrets of its own, but a .env or a
		// key put there (a folder a go.mod replace points at, under /opt
		// or the module cache) is a secret wherever it lies, and so is
		// a file of a folder named as one above the system folder (a
		// GOMODCACHE kept in ~/.gnupg): the globs are matched from the
		// folder and from the file system's top alike.
		if rel, err := filepath.Rel(s, real); err != nil || p.m.pol.Secret(filepath.ToSlash(rel)) ||
			p.m.pol.SecretOutside(real) {
			return "a secret file outside the workspace (" + real + ")"
		}
		return ""
	}
	return "a file outside the workspace (" + real + ")"
}

package lsp

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
)

// A diagnostic's message is the server's text, and a server may quote any
// file it reads: gopls runs cgo, which runs the C compiler on a Go file's
// preamble, and a preamble can #include .env or ~/.aws/credentials — the
// compiler's errors then quote their lines ("./.env:1:1: error: …  1 |
// DB_PASSWORD=…"), reported on the Go file. A location is filtered by where
// it points (places.file); a message is filtered by the places it names: a
// message that names a file:line which is a secret or denied path inside
// the roots, or a file outside them that is not a system or toolchain
// file, is withheld whole.

// quotedPlace finds file:line in a message: a path (with a slash or a dot
// in it) followed by a colon and a number.
var quotedPlace = regexp.MustCompile(`(?:^|[\s'"(\[<{,])((?:[A-Za-z]:)?[^\s'"()\[\]<>{},:]*[./\\][^\s'"()\[\]<>{},:]*):[0-9]+`)

// systemPlaces are folders outside the roots whose files a message may
// quote: the system's headers and libraries, toolchains and module caches.
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
	out := places[:0]
	for _, p := range places {
		if p != "" && filepath.IsAbs(p) {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

// withheldQuote returns what a message about the file abs quotes that juju
// does not show ("" when nothing): its display name, or its path outside
// the roots.
func (p *places) withheldQuote(abs, msg string) string {
	if !strings.Contains(msg, ":") {
		return ""
	}
	for _, m := range quotedPlace.FindAllStringSubmatch(msg, -1) {
		name := m[1]
		var candidates []string
		if filepath.IsAbs(name) {
			candidates = []string{name}
		} else {
			candidates = []string{filepath.Join(filepath.Dir(abs), name), filepath.Join(p.c.root, name)}
		}
		for _, c := range candidates {
			if why := p.withheldFile(filepath.Clean(c)); why != "" {
				return why
			}
		}
	}
	return ""
}

// withheldFile says whether a message may quote the file at path: "" when
// it may (a file of the roots the policy shows, a system file, or nothing
// there), else how to name it.
func (p *places) withheldFile(path string) string {
	for _, r := range p.m.pol.Roots() {
		if within(path, r.Real) || within(path, r.Path) {
			if _, e := p.m.pol.Resolve(path); e != nil && (e.Code == abi.SecretDenied || e.Code == abi.PathDenied) {
				return "a secret or denied file of the workspace"
			}
			return ""
		}
	}
	if _, err := os.Lstat(path); err != nil {
		return "" // nothing there: nothing quoted
	}
	real := path
	if r, err := filepath.EvalSymlinks(path); err == nil {
		real = r
	}
	for _, s := range p.m.system {
		if within(path, s) && within(real, s) {
			return ""
		}
	}
	return "a file outside the workspace (" + path + ")"
}

package exec

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/jujutools/juju/internal/policy"
)

// What a confined command may write besides the roots, and what it may not
// write inside them.
//
// A root may hold the owner's home, and with it the package caches and
// juju's own folders. A cache inside a root is written through the root's
// bind; a bind of its own would be resolved again for every command, and a
// command that replaced what leads to it (.cache moved away, a link to / put
// at .cache/go-build) would have the next command's sandbox bind wherever
// that link points, writable. So caches are resolved once, and a cache
// inside a root, holding one, or leading there is not bound.
//
// juju's own folders inside a root (its configuration, state, compilation
// cache and plugins) are bound read-only, and every folder between the root
// and each of them is pinned (bound onto itself, so it cannot be moved
// away and made anew): a command could otherwise register a language
// server juju starts unconfined, approve its own calls, or plant machine
// code in the compilation cache.

// safeCaches resolves each cache that exists now and keeps those that
// neither lie inside a root or a folder of juju's, nor hold one, by their
// path as given or as resolved. private also lists juju's own programs
// and files (ownPaths): a cache holding one is not bound either, since
// juju runs its programs outside any sandbox. Go caches the programs
// `go run` builds in GOCACHE and runs them from there, so juju started
// that way has itself in a cache every confined command could write.
func safeCaches(caches, roots, private []string) []string {
	var out []string
	for _, c := range caches {
		abs, err := filepath.Abs(c)
		if err != nil {
			continue
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() || real == string(filepath.Separator) {
			continue
		}
		if overlaps(abs, roots) || overlaps(real, roots) || overlaps(abs, private) || overlaps(real, private) {
			continue
		}
		out = append(out, real)
	}
	return out
}

// ownPaths returns juju's programs and files (paths), each as given and,
// when it differs, as resolved through links.
func ownPaths(paths []string) []string {
	var out []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		out = append(out, abs)
		if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
			out = append(out, real)
		}
	}
	return out
}

// overlaps reports whether p lies inside one of dirs or holds one.
func overlaps(p string, dirs []string) bool {
	for _, d := range dirs {
		if policy.Within(p, d) || policy.Within(d, p) {
			return true
		}
	}
	return false
}

// privateGuard is how juju's own folders and programs inside the roots are
// kept from confined commands: pinned folders on the way, and the folders
// and programs themselves read-only.
type privateGuard struct {
	pinned, readOnly []string
	// unguarded are folders of juju's inside a root that could not be
	// guarded: a link on the way, which a command could point elsewhere.
	unguarded []string
}

// guardPrivate finds juju's folders (private) and programs (its executable
// and its sandbox helper, which juju runs outside any sandbox) inside the
// roots (real paths), and returns their guard. Each is guarded by its path
// as juju uses it and by where that leads. The folders are made first (an
// empty folder the owner's juju would make anyway, so that a command cannot
// make it first with a configuration of its own, and so that a path
// through a link resolves). A root that is one of juju's folders, or lies
// inside one, is read-only as a whole.
func guardPrivate(private, programs, roots []string) privateGuard {
	var g privateGuard
	seen := map[string]bool{}
	guard := func(p string, folder bool) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return
		}
		if folder {
			os.MkdirAll(abs, 0o700)
		}
		paths := []string{abs}
		if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
			paths = append(paths, real)
		}
		for _, d := range paths {
			for _, r := range roots {
				switch {
				case seen[d+"\x00"+r]:
				case folder && policy.Within(r, d):
					g.readOnly = append(g.readOnly, r) // the root is juju's
				case d == r || !policy.Within(d, r):
				default:
					if pins, ok := chain(r, d, folder); ok {
						g.pinned = append(g.pinned, pins...)
						g.readOnly = append(g.readOnly, d)
					} else {
						g.unguarded = append(g.unguarded, d)
					}
				}
				seen[d+"\x00"+r] = true
			}
		}
	}
	for _, p := range private {
		guard(p, true)
	}
	for _, p := range programs {
		guard(p, false)
	}
	return g
}

// chain returns the folders strictly between root and p (inside root),
// which is a folder (made if missing) or a file; ok is false when one of
// them, or p, is not what it should be (a link, or the wrong kind).
func chain(root, p string, folder bool) ([]string, bool) {
	if folder {
		if err := os.MkdirAll(p, 0o700); err != nil {
			return nil, false
		}
	}
	var out []string
	for d := p; d != root; d = filepath.Dir(d) {
		fi, err := os.Lstat(d)
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return nil, false
		}
		switch {
		case d != p && !fi.IsDir(), d == p && folder && !fi.IsDir(), d == p && !folder && !fi.Mode().IsRegular():
			return nil, false
		}
		if d != p {
			out = append(out, d)
		}
		if filepath.Dir(d) == d {
			return nil, false
		}
	}
	return out, true
}

// runtimeFolders are the owner's session runtime folders (XDG_RUNTIME_DIR
// in env, and /run/user/UID) that exist, as a confined command must find
// them: empty. They hold the sockets of the session's daemons, and
// connecting to a socket is no write: the D-Bus session bus there reaches
// systemd's user manager, which runs whatever it is asked outside any
// sandbox and past juju's end (`systemd-run --user`); podman's and the
// keyring's sockets are there too. One that overlaps a folder of keep
// (the roots, the caches, juju's own folders and programs) or lies in
// /tmp (private to the sandbox already) is left as it is.
func runtimeFolders(env []string, keep []string) []string {
	var cands []string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok && filepath.IsAbs(v) {
			cands = append(cands, v)
		}
	}
	if runtime.GOOS == "linux" {
		cands = append(cands, filepath.Join("/run/user", strconv.Itoa(os.Getuid())))
	}
	return hideable(cands, keep)
}

// ownFolders are juju's own folders (configuration, state, compilation
// cache, plugins) that exist, as a confined command must find them:
// empty. The sandbox confines writes, not reads, and they hold what
// belongs to no command: the HTTP front's token and its OAuth clients'
// tokens (with which a command reaching juju serve over the network
// would act as the owner or as another client), the journal's copies of
// files a rollback restores, the audit log, every job's output, other
// principals' included. One that overlaps a folder of keep (the roots,
// the caches, juju's own programs, which bubblewrap must find) or lies
// in /tmp (private to the sandbox already) is left as it is: inside a
// root it is bound read-only instead (guardPrivate).
func ownFolders(private, keep []string) []string {
	return hideable(private, keep)
}

// hideable returns the folders of cands, resolved, that exist and can be
// covered with an empty tmpfs of their own: not "/", not in /tmp, not
// overlapping a folder of keep, each once.
func hideable(cands, keep []string) []string {
	var out []string
	for _, c := range cands {
		if !filepath.IsAbs(c) {
			continue
		}
		c = filepath.Clean(c)
		if real, err := filepath.EvalSymlinks(c); err == nil {
			c = real
		}
		if fi, err := os.Stat(c); err != nil || !fi.IsDir() || c == "/" || policy.Within(c, "/tmp") || overlaps(c, keep) || slices.Contains(out, c) {
			continue
		}
		out = append(out, c)
	}
	return out
}

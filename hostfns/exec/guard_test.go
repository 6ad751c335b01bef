package exec

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestSafeCaches(t *testing.T) {
	base := t.TempDir()
	mk := func(p string) string {
		d := filepath.Join(base, p)
		os.MkdirAll(d, 0o755)
		return d
	}
	root, outside, juju := mk("home/proj"), mk("caches/go-build"), mk("jujuhome")
	inRoot := mk("home/proj/.cache/pip")
	os.Symlink(outside, filepath.Join(root, "link-out"))
	os.Symlink(root, filepath.Join(base, "caches", "link-in"))
	got := safeCaches([]string{
		outside,                                  // kept, resolved
		inRoot,                                   // inside a root: its bind covers it
		filepath.Join(root, "link-out"),          // a path inside a root, leading out
		filepath.Join(base, "caches", "link-in"), // leading into a root
		filepath.Join(base, "home"),              // holds a root
		"/",                                      // everything
		filepath.Join(base, "missing"),           // not there
		juju,                                     // juju's own
	}, []string{root}, []string{juju})
	if !slices.Equal(got, []string{outside}) {
		t.Errorf("safeCaches = %q, want only %s", got, outside)
	}
	// A cache holding juju's own program (go run leaves it in GOCACHE),
	// by its path or through a link.
	withJuju := mk("caches/gocache")
	exe := filepath.Join(withJuju, "ab", "ab12-d", "juju")
	os.MkdirAll(filepath.Dir(exe), 0o755)
	os.WriteFile(exe, []byte("juju"), 0o755)
	os.Symlink(exe, filepath.Join(base, "juju-link"))
	for _, own := range []string{exe, filepath.Join(base, "juju-link")} {
		if got := safeCaches([]string{outside, withJuju}, []string{root}, ownPaths([]string{own})); !slices.Equal(got, []string{outside}) {
			t.Errorf("with juju at %s: safeCaches = %q, want only %s", own, got, outside)
		}
	}
}

func TestGuardPrivate(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	cfg := filepath.Join(root, ".config", "juju")
	state := filepath.Join(root, ".local", "state", "juju")
	os.MkdirAll(filepath.Join(root, "real"), 0o755)
	os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "linked"))
	viaLink := filepath.Join(root, "linked", "juju")
	g := guardPrivate([]string{cfg, state, viaLink, filepath.Join(outside, "data")}, nil, []string{root})
	wantPinned := []string{filepath.Join(root, ".config"), filepath.Join(root, ".local", "state"), filepath.Join(root, ".local"),
		filepath.Join(root, "real")}
	slices.Sort(g.pinned)
	slices.Sort(wantPinned)
	if !slices.Equal(g.pinned, wantPinned) {
		t.Errorf("pinned %q, want %q", g.pinned, wantPinned)
	}
	if !slices.Equal(g.readOnly, []string{cfg, state, filepath.Join(root, "real", "juju")}) {
		t.Errorf("readOnly %q", g.readOnly)
	}
	if !slices.Equal(g.unguarded, []string{viaLink}) {
		t.Errorf("unguarded %q: a folder reached through a link inside the root", g.unguarded)
	}
	for _, d := range []string{cfg, state} {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			t.Errorf("%s was not made: %v", d, err)
		}
	}
}

// juju's executables inside a root are read-only with their folders
// pinned; a root that is one of juju's folders, or lies in one, is
// read-only whole.
func TestGuardProgramsAndJujuRoots(t *testing.T) {
	root, other, jujuHome := t.TempDir(), t.TempDir(), t.TempDir()
	bin := filepath.Join(root, "tools", "bin")
	os.MkdirAll(bin, 0o755)
	exe := filepath.Join(bin, "juju")
	os.WriteFile(exe, []byte("x"), 0o755)
	stateRoot := filepath.Join(jujuHome, "state")
	os.MkdirAll(filepath.Join(stateRoot, "w"), 0o700)
	g := guardPrivate([]string{filepath.Join(jujuHome, "config"), stateRoot}, []string{exe, filepath.Join(other, "juju-sandbox")},
		[]string{root, filepath.Join(jujuHome, "config"), filepath.Join(stateRoot, "w")})
	for _, want := range []string{exe, filepath.Join(jujuHome, "config"), filepath.Join(stateRoot, "w")} {
		if !slices.Contains(g.readOnly, want) {
			t.Errorf("%s is not read-only: %q", want, g.readOnly)
		}
	}
	for _, want := range []string{filepath.Join(root, "tools"), bin} {
		if !slices.Contains(g.pinned, want) {
			t.Errorf("%s is not pinned: %q", want, g.pinned)
		}
	}
}

// The session's runtime folder is hidden from a confined command, unless
// it holds, or lies in, a folder the command must reach (a root, a cache,
// juju's own), or lies in /tmp (private to the sandbox already), or is
// not an absolute path to a folder.
func TestRuntimeFolders(t *testing.T) {
	base, err := os.MkdirTemp("/var/tmp", "juju-runtime-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	run, withRoot := filepath.Join(base, "run"), filepath.Join(base, "run2")
	root := filepath.Join(withRoot, "proj")
	os.MkdirAll(run, 0o700)
	os.MkdirAll(root, 0o700)
	for _, c := range []struct {
		dir  string
		want bool
	}{{run, true}, {withRoot, false}, {root, false}, {filepath.Join(base, "missing"), false}, {"relative", false}} {
		got := runtimeFolders([]string{"XDG_RUNTIME_DIR=" + c.dir}, []string{root})
		if slices.Contains(got, c.dir) != c.want {
			t.Errorf("XDG_RUNTIME_DIR=%s: hidden %v, want %v", c.dir, got, c.want)
		}
	}
	if got := runtimeFolders([]string{"XDG_RUNTIME_DIR=/tmp"}, nil); slices.Contains(got, "/tmp") {
		t.Errorf("/tmp is hidden: %v", got)
	}
}

// juju's own folders are hidden from a confined command when they exist
// outside every folder it must reach: not one holding or inside a root,
// nor holding juju's helper, nor one missing, nor one in /tmp.
func TestOwnFolders(t *testing.T) {
	base, err := os.MkdirTemp("/var/tmp", "juju-own-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	state, config, data := filepath.Join(base, "state"), filepath.Join(base, "config"), filepath.Join(base, "data")
	root := filepath.Join(base, "home")
	inRoot := filepath.Join(root, ".cache", "juju")
	for _, d := range []string{state, config, data, inRoot} {
		os.MkdirAll(d, 0o700)
	}
	helper := filepath.Join(data, "bin", "juju-sandbox")
	tmp, err := os.MkdirTemp("/tmp", "juju-own-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	got := ownFolders([]string{state, config, data, inRoot, filepath.Join(base, "missing"), tmp, "relative"}, []string{root, helper})
	if !slices.Equal(got, []string{state, config}) {
		t.Errorf("hidden %q, want %q", got, []string{state, config})
	}
}

// The files a sandbox covers (juju serve's --token-file) are resolved
// through links once, at start: a link a command plants later where one
// was does not move the cover off the file. One not made yet is covered
// once it exists; one in /tmp or a hidden folder, which the sandbox
// covers already, is not bound again.
func TestHiddenFiles(t *testing.T) {
	base, err := os.MkdirTemp("/var/tmp", "juju-hidden-files-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	secret, decoy, later := filepath.Join(base, "secret"), filepath.Join(base, "decoy"), filepath.Join(base, "later")
	os.WriteFile(secret, []byte("t"), 0o600)
	os.WriteFile(decoy, []byte("d"), 0o600)
	link := filepath.Join(base, "link")
	os.Symlink(secret, link)
	hidden := filepath.Join(base, "hidden")
	os.Mkdir(hidden, 0o700)
	os.WriteFile(filepath.Join(hidden, "tok"), []byte("t"), 0o600)
	tmp := filepath.Join(t.TempDir(), "tok")
	os.WriteFile(tmp, []byte("t"), 0o600)

	files := resolveFiles([]string{link, later, filepath.Join(hidden, "tok"), tmp, "relative"})
	os.Remove(link)
	os.Symlink(decoy, link)
	if got, want := hiddenFiles(files, []string{hidden}), []string{secret}; !slices.Equal(got, want) {
		t.Errorf("covered %q, want %q", got, want)
	}
	os.WriteFile(later, []byte("t"), 0o600)
	if got, want := hiddenFiles(files, []string{hidden}), []string{secret, later}; !slices.Equal(got, want) {
		t.Errorf("covered %q once made, want %q", got, want)
	}
}

// The agents' sockets are covered like files, while they exist: the one
// SSH_AUTH_SOCK names, and gpg-agent's and dirmngr's in GNUPGHOME, else in
// ~/.gnupg; one named by a relative path, by another variable, or another
// of gpg's (its key box), is not.
func TestHiddenFilesCoverTheAgentSockets(t *testing.T) {
	base, err := os.MkdirTemp("/var/tmp", "juju-agent-socket-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	gnupg := filepath.Join(base, "gnupg")
	os.Mkdir(gnupg, 0o700)
	os.Mkdir(filepath.Join(base, ".gnupg"), 0o700)
	ssh, gpg, dirmngr, scd := filepath.Join(base, "agent.sock"), filepath.Join(gnupg, "S.gpg-agent"), filepath.Join(gnupg, "S.dirmngr"), filepath.Join(base, ".gnupg", "S.scdaemon")
	other, keybox := filepath.Join(base, "other.sock"), filepath.Join(gnupg, "S.keyboxd")
	env := []string{"SSH_AUTH_SOCK=" + ssh, "SSH_AUTH_SOCK=rel.sock", "OTHER_SOCK=" + other, "GNUPGHOME=" + gnupg, "HOME=" + base}
	if got := hiddenFiles(resolveFiles(agentSockets(env)), nil); len(got) != 0 {
		t.Errorf("covered %q before the agents started", got)
	}
	for _, p := range []string{ssh, gpg, dirmngr, scd, other, keybox} {
		ln, err := net.Listen("unix", p)
		if err != nil {
			t.Skip(err)
		}
		t.Cleanup(func() { ln.Close() })
	}
	for _, c := range []struct {
		env  []string
		want []string
	}{
		{env, []string{ssh, gpg, dirmngr}},
		{[]string{"HOME=" + base}, []string{scd}},
	} {
		files := resolveFiles(agentSockets(c.env))
		if got := hiddenFiles(files, nil); !slices.Equal(got, c.want) {
			t.Errorf("%q: covered %q, want %q", c.env, got, c.want)
		}
	}
}

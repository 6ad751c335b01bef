package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// startHomeEnv is startHome with HOME (and so the caches juju finds)
// set for juju.
func startHomeEnv(t *testing.T, jujuHome, root, homeDir string, args ...string) *session {
	t.Helper()
	if _, err := os.Lstat(filepath.Join(jujuHome, "cache")); os.IsNotExist(err) {
		os.MkdirAll(jujuHome, 0o700)
		if err := os.Symlink(sharedCache, filepath.Join(jujuHome, "cache")); err != nil {
			t.Fatal(err)
		}
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "GOCACHE", "GOPATH", "GOMODCACHE", "npm_config_cache", "CARGO_HOME", "PIP_CACHE_DIR":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "JUJU_HOME="+jujuHome, "HOME="+homeDir)
	return startCommand(t, env, jujuBin, append([]string{"stdio", "--root", root}, args...), jujuHome, root)
}

// runIn runs a shell command through run_command and returns its stdout.
func runIn(t *testing.T, s *session, script string) string {
	t.Helper()
	m := structured(t, s.call("run_command", map[string]any{"command": script}))
	if mech, _ := m["sandbox"].(string); !strings.HasPrefix(mech, "bubblewrap") {
		t.Fatalf("not confined: sandbox %q", mech)
	}
	out, _ := m["stdout"].(string)
	return out
}

// A root may hold the owner's home and its package caches. A confined
// command that replaces what leads to a cache (.cache moved away, a link
// to a folder outside put at .cache/go-build) must not have the next
// command's sandbox bind that folder writable; nor may a link planted at
// a cache's path before juju starts.
func TestSandboxCachesCannotBeRedirected(t *testing.T) {
	needSandbox(t)
	out := outside(t)
	root := workspace(t, map[string]string{".cache/go-build/README": "cache\n", "src/a.go": "package a\n"})
	s := startHomeEnv(t, t.TempDir(), root, root, "--mode", "trusted", "--sandbox", "require")
	runIn(t, s, "mv .cache .cache-old && mkdir .cache && ln -s "+out+" .cache/go-build")
	got := runIn(t, s, "echo PWNED > "+out+"/victim.txt && echo wrote || echo refused")
	if _, err := os.Stat(filepath.Join(out, "victim.txt")); err == nil || strings.Contains(got, "wrote") {
		t.Fatalf("a command wrote outside the roots through a redirected cache (%q)", got)
	}

	// Planted before juju starts: a cache path inside the root that is a
	// link to outside.
	root2 := workspace(t, map[string]string{"src/a.go": "package a\n", ".cargo/registry": "->" + out})
	s2 := startHomeEnv(t, t.TempDir(), root2, root2, "--mode", "trusted", "--sandbox", "require")
	got = runIn(t, s2, "echo PWNED > "+out+"/planted.txt && echo wrote || echo refused")
	if _, err := os.Stat(filepath.Join(out, "planted.txt")); err == nil || strings.Contains(got, "wrote") {
		t.Fatalf("a command wrote outside the roots through a planted cache link (%q)", got)
	}
}

// With one root inside another, a command that replaces a folder leading
// to the inner root by a link must not have the next sandbox bind the
// link's target writable. The inner root then no longer stands at its
// path, so the next call stops before any sandbox is built, naming it
// (TestMovedRootSaysRestart); a sandbox built in a race with such a swap
// refuses to run (TestHelperRefusesRacedPins).
func TestSandboxNestedRootsCannotBeRedirected(t *testing.T) {
	needSandbox(t)
	out := outside(t)
	outer := workspace(t, map[string]string{"x/sub/a.txt": "a\n"})
	s := start(t, outer, "--root", filepath.Join(outer, "x", "sub"), "--mode", "trusted", "--sandbox", "require")
	runIn(t, s, "mv x y && mkdir x && ln -s "+out+" x/sub")
	res := s.call("run_command", map[string]any{"command": "echo PWNED > " + out + "/f && echo wrote || echo refused"})
	if got := text(res); !res.IsError || !strings.Contains(got, "NOT_FOUND") || !strings.Contains(got, "was moved away from its path") {
		t.Errorf("the call after the inner root was redirected: %s", got)
	}
	if _, err := os.Stat(filepath.Join(out, "f")); err == nil {
		t.Fatal("a command wrote outside the roots through a redirected inner root")
	}
}

// juju's own folders inside a root (a root holding JUJU_HOME, or the
// owner's home with juju's default folders) are not a confined command's
// to write: a language server registered there would run unconfined, an
// approval there would be the owner's, machine code in the compilation
// cache would run in juju. Nor can it move a folder on the way to them
// and make a new one.
func TestSandboxCannotWriteJujusOwnFolders(t *testing.T) {
	needSandbox(t)
	root := workspace(t, map[string]string{"src/a.go": "package a\n"})
	jujuHome := filepath.Join(root, "dot", "juju")
	s := startHomeEnv(t, jujuHome, root, t.TempDir(), "--mode", "trusted", "--sandbox", "require")
	lsp := filepath.Join(jujuHome, "config", "lsp.toml")
	got := runIn(t, s, `
printf '[[server]]\nname = "evil"\ncommand = ["sh", "-c", "id"]\nlanguages = ["go"]\n' > `+lsp+` && echo wrote-lsp || echo refused-lsp
mv dot dot-old 2>/dev/null && echo moved || echo refused-move
mkdir -p dot/juju/config 2>/dev/null; printf 'x' > dot/juju/config/lsp.toml 2>/dev/null && echo replaced || echo refused-replace
mkdir -p `+jujuHome+`/state/x 2>/dev/null && echo wrote-state || echo refused-state`)
	for _, want := range []string{"refused-lsp", "refused-move", "refused-replace", "refused-state"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %q", want, got)
		}
	}
	if _, err := os.Stat(lsp); err == nil {
		t.Errorf("a confined command registered a language server")
	}
}

// A confined command makes no set-user-ID or set-group-ID file: with juju
// running as root, the sandbox's root is the host's, and such a file left
// in the workspace would run as root for any local user.
func TestSandboxMakesNoSetIDFiles(t *testing.T) {
	needSandbox(t)
	root := workspace(t, map[string]string{"src/a.go": "package a\n"})
	s := start(t, root, "--mode", "trusted", "--sandbox", "require")
	got := runIn(t, s, `
cp /bin/sh suid-chmod && chmod 4755 suid-chmod 2>/dev/null; echo chmod=$?
cp /bin/sh sgid-chmod && chmod g+s sgid-chmod 2>/dev/null; echo chmodg=$?
install -m 4755 /bin/sh suid-install 2>/dev/null; echo install=$?
python3 -c 'import os; os.close(os.open("suid-open", os.O_CREAT|os.O_WRONLY, 0o4755))' 2>/dev/null; echo open=$?
cp /bin/sh plain && chmod 750 plain && echo plain-ok
echo done`)
	if !strings.Contains(got, "plain-ok") || !strings.Contains(got, "done") {
		t.Fatalf("the command did not run through: %q", got)
	}
	if !strings.Contains(got, "chmod=1") {
		t.Errorf("chmod 4755 did not fail in the sandbox: %q", got)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		fi, err := os.Lstat(filepath.Join(root, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0 {
			t.Errorf("%s is %v on the host", e.Name(), fi.Mode())
		}
	}
	if fi, err := os.Stat(filepath.Join(root, "plain")); err != nil || fi.Mode().Perm() != 0o750 {
		t.Errorf("an ordinary chmod: %v %v", fi, err)
	}
}

// juju runs its sandbox helper (and itself, next time) outside any
// sandbox: when they lie inside a root, a confined command cannot replace
// them, in place or by a rename, nor move their folder away.
func TestSandboxCannotReplaceJujusPrograms(t *testing.T) {
	needSandbox(t)
	root := workspace(t, map[string]string{"src/a.go": "package a\n"})
	bin := filepath.Join(root, "tools", "bin")
	os.MkdirAll(bin, 0o755)
	copyFile := func(src, dst string) {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Skip(err)
		}
		if err := os.WriteFile(dst, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	helper := filepath.Join(filepath.Dir(jujuBin), "juju-sandbox")
	copyFile(jujuBin, filepath.Join(bin, "juju"))
	copyFile(helper, filepath.Join(bin, "juju-sandbox"))
	before, _ := os.ReadFile(filepath.Join(bin, "juju-sandbox"))
	home := newHome(t)
	s := startCommand(t, append(os.Environ(), "JUJU_HOME="+home), filepath.Join(bin, "juju"),
		[]string{"stdio", "--root", root, "--mode", "trusted", "--sandbox", "require"}, home, root)
	got := runIn(t, s, `
printf '#!/bin/sh\necho evil\n' > evil.sh; chmod 755 evil.sh
cp evil.sh tools/bin/js.new && mv tools/bin/js.new tools/bin/juju-sandbox 2>/dev/null && echo renamed || echo refused-rename
cat evil.sh > tools/bin/juju-sandbox 2>/dev/null && echo overwrote || echo refused-overwrite
cat evil.sh > tools/bin/juju 2>/dev/null && echo overwrote-juju || echo refused-juju
mv tools tools-old 2>/dev/null && echo moved || echo refused-move`)
	for _, want := range []string{"refused-rename", "refused-overwrite", "refused-juju", "refused-move"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %q", want, got)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(bin, "juju-sandbox")); string(after) != string(before) {
		t.Fatal("a confined command replaced juju's sandbox helper")
	}
	// And the next command still runs, confined by the real helper.
	if got := runIn(t, s, "echo second"); got != "second\n" {
		t.Errorf("the next command: %q", got)
	}
}

// juju's programs inside a package cache (`go run` leaves the program it
// builds in GOCACHE and runs it from there): the cache is not bound
// writable, so a confined command can neither replace the helper the
// next sandbox's reaper runs as, outside any sandbox, nor juju.
func TestSandboxCannotReplaceJujusProgramsInACache(t *testing.T) {
	needSandbox(t)
	root := workspace(t, map[string]string{"src/a.go": "package a\n"})
	cache := outside(t) // not under /tmp, the sandbox's own
	bin := filepath.Join(cache, "0f", "0f1e-d")
	os.MkdirAll(bin, 0o755)
	for _, p := range []string{jujuBin, filepath.Join(filepath.Dir(jujuBin), "juju-sandbox")} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Skip(err)
		}
		if err := os.WriteFile(filepath.Join(bin, filepath.Base(p)), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := os.ReadFile(filepath.Join(bin, "juju-sandbox"))
	home := newHome(t)
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "GOCACHE" && k != "HOME" {
			env = append(env, kv)
		}
	}
	env = append(env, "JUJU_HOME="+home, "GOCACHE="+cache, "HOME="+t.TempDir())
	s := startCommand(t, env, filepath.Join(bin, "juju"),
		[]string{"stdio", "--root", root, "--mode", "trusted", "--sandbox", "require"}, home, root)
	got := runIn(t, s, `
printf '#!/bin/sh\necho evil\n' > evil.sh; chmod 755 evil.sh
cp evil.sh `+bin+`/js.new 2>/dev/null && mv `+bin+`/js.new `+bin+`/juju-sandbox 2>/dev/null && echo renamed || echo refused-rename
cp evil.sh `+bin+`/j.new 2>/dev/null && mv `+bin+`/j.new `+bin+`/juju 2>/dev/null && echo renamed-juju || echo refused-juju
mkdir `+cache+`/planted 2>/dev/null && echo wrote-cache || echo refused-cache`)
	for _, want := range []string{"refused-rename", "refused-juju", "refused-cache"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %q", want, got)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(bin, "juju-sandbox")); string(after) != string(before) {
		t.Fatal("a confined command replaced juju's sandbox helper in the package cache")
	}
	if _, err := os.Stat(filepath.Join(cache, "planted")); err == nil {
		t.Error("a confined command wrote in the package cache holding juju")
	}
	if got := runIn(t, s, "echo second"); got != "second\n" {
		t.Errorf("the next command: %q", got)
	}
}

// juju's folders are guarded where they lead: a home folder reached
// through a link, its juju configuration folder not made yet.
func TestSandboxGuardsJujusFoldersThroughALink(t *testing.T) {
	needSandbox(t)
	base := t.TempDir()
	real := filepath.Join(base, "realhome")
	os.MkdirAll(filepath.Join(real, "src"), 0o755)
	link := filepath.Join(base, "homelink")
	os.Symlink(real, link)
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || k == "JUJU_HOME" || strings.HasPrefix(k, "XDG_") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+link)
	os.MkdirAll(filepath.Join(real, ".cache", "juju"), 0o700)
	os.Symlink(sharedCache, filepath.Join(real, ".cache", "juju", "cache"))
	s := startCommand(t, env, jujuBin, []string{"stdio", "--root", link, "--mode", "trusted", "--sandbox", "require"}, filepath.Join(real, ".config", "juju"), link)
	got := runIn(t, s, `mkdir -p `+real+`/.config/juju 2>/dev/null; printf 'sandbox = "off"\n' > `+real+`/.config/juju/config.toml 2>/dev/null && echo wrote || echo refused`)
	if !strings.Contains(got, "refused") {
		t.Errorf("a confined command wrote juju's configuration through the home folder's link: %q", got)
	}
}

// The owner's session runtime folder (XDG_RUNTIME_DIR, /run/user/UID)
// holds the sockets of the session's daemons: the D-Bus session bus, and
// through it systemd's user manager, which starts whatever it is asked
// outside any sandbox (`systemd-run --user sh -c …`), outliving juju; a
// podman or gpg agent socket alike. A confined command finds that folder
// empty.
func TestSandboxHidesTheSessionRuntimeFolder(t *testing.T) {
	needSandbox(t)
	run := outside(t)
	if err := os.WriteFile(filepath.Join(run, "bus"), []byte("a daemon's socket\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_RUNTIME_DIR", run)
	root := workspace(t, map[string]string{"src/a.go": "package a\n"})
	s := start(t, root, "--mode", "trusted", "--sandbox", "require")
	for _, network := range []bool{false, true} {
		m := structured(t, s.call("run_command", map[string]any{"network": network, "command": "test -d " + run + " && echo folder; test -e " + run + "/bus && echo visible; echo done"}))
		got, _ := m["stdout"].(string)
		if mech, _ := m["sandbox"].(string); !strings.HasPrefix(mech, "bubblewrap") || !strings.Contains(got, "done") {
			t.Fatalf("the command did not run confined: sandbox %q (%q)", mech, got)
		}
		if strings.Contains(got, "visible") || !strings.Contains(got, "folder") {
			t.Fatalf("a confined command (network %v) sees the session's runtime folder as it is, or not at all: %q", network, got)
		}
	}
}

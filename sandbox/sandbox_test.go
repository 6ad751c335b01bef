package sandbox

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain makes the test binary its own juju helper: re-executed with
// HelperCommand first, it is what `juju __sandbox` is.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == HelperCommand {
		os.Exit(HelperMain(os.Args[2:], os.Stderr))
	}
	os.Exit(m.Run())
}

// testHelper is the helper argv of this test binary.
func testHelper(t *testing.T) []string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, HelperCommand}
}

func needLandlock(t *testing.T, min int) int {
	t.Helper()
	abi, err := LandlockABI()
	if err != nil {
		t.Skipf("no Landlock here: %v", err)
	}
	if abi < min {
		t.Skipf("Landlock ABI %d < %d", abi, min)
	}
	return abi
}

func needBubblewrap(t *testing.T) {
	t.Helper()
	if a := DetectBubblewrap(context.Background()); !a.Available {
		t.Skipf("no working bubblewrap: %s", a.Reason)
	}
}

// outsideDir is a folder outside the roots and outside /tmp (which is a
// private tmpfs inside bubblewrap, so a write there would vanish rather
// than fail).
func outsideDir(t *testing.T) string {
	d, err := os.MkdirTemp("/var/tmp", "juju-sandbox-test-")
	if err != nil {
		t.Skipf("no /var/tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// listener accepts on loopback and counts connections.
func listener(t *testing.T) (port int, accepted chan struct{}) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	accepted = make(chan struct{}, 8)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port, accepted
}

func runArgv(t *testing.T, argv []string, dir string) (string, int) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%v: %v", argv, err)
	}
	return string(out), code
}

// runWrapped runs a bash script confined by p through sb.
func runWrapped(t *testing.T, sb *Sandbox, p Policy, cwd, script string) (string, int, string) {
	t.Helper()
	argv, mech, err := sb.Wrap(p, cwd, []string{"bash", "-c", script})
	if err != nil {
		t.Fatal(err)
	}
	out, code := runArgv(t, argv, cwd)
	return out, code, mech
}

// TestHelperLandlock runs the re-exec path alone: the helper restricts
// itself and execs bash, whose writes are confined.
func TestHelperLandlock(t *testing.T) {
	abi := needLandlock(t, 1)
	root, out := t.TempDir(), outsideDir(t)
	argv := append(testHelper(t), HelperArgs(Policy{Write: []string{root}}, abi)...)
	script := `echo in > "$1/inside" && echo ok-inside; echo out > "$2/outside" || echo refused-outside`
	argv = append(argv, "--", "bash", "-c", script, "bash", root, out)
	got, code := runArgv(t, argv, root)
	if code != 0 || !strings.Contains(got, "ok-inside") || !strings.Contains(got, "refused-outside") {
		t.Fatalf("exit %d, output:\n%s", code, got)
	}
	if _, err := os.Stat(filepath.Join(out, "outside")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the write outside left a file: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "inside")); string(b) != "in\n" {
		t.Errorf("inside = %q", b)
	}
}

// TestHelperLandlockNetwork: TCP connect to a loopback listener is refused
// without --net (Landlock ABI 4+) and allowed with it.
func TestHelperLandlockNetwork(t *testing.T) {
	abi := needLandlock(t, 4)
	port, accepted := listener(t)
	script := `exec 3<>/dev/tcp/127.0.0.1/` + strconv.Itoa(port) + ` && echo connected || echo refused`
	for _, network := range []bool{false, true} {
		argv := append(testHelper(t), HelperArgs(Policy{Network: network}, abi)...)
		got, _ := runArgv(t, append(argv, "--", "bash", "-c", script), t.TempDir())
		want := map[bool]string{false: "refused", true: "connected"}[network]
		if !strings.Contains(got, want) {
			t.Errorf("network=%v: got %q, want %q", network, got, want)
		}
	}
	select {
	case <-accepted:
	case <-time.After(2 * time.Second):
		t.Error("the allowed connection never arrived")
	}
	select {
	case <-accepted:
		t.Error("the denied connection arrived")
	default:
	}
}

// TestHelperFailsClosed: a helper that cannot confine does not run the
// command.
func TestHelperFailsClosed(t *testing.T) {
	root := t.TempDir()
	marker := filepath.Join(root, "ran")
	for name, flags := range map[string][]string{
		"abi beyond the kernel": {"--abi", "999"},
		"no abi":                {"--write", root},
		"unknown flag":          {"--abi", "1", "--bogus"},
	} {
		t.Run(name, func(t *testing.T) {
			argv := append(append(testHelper(t), flags...), "--", "touch", marker)
			got, code := runArgv(t, argv, root)
			if code != HelperExitCode || !strings.Contains(got, "juju "+HelperCommand) {
				t.Errorf("exit %d, output %q", code, got)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("the command ran")
			}
		})
	}
}

func TestParseHelperArgs(t *testing.T) {
	s, err := parseHelperArgs([]string{"--abi", "4", "--write", "/a", "--net", "--pin", "/a/.git", "--write", "/b", "--", "ls", "--", "-l"})
	if err != nil || s.abi != 4 || !s.policy.Network || strings.Join(s.policy.Write, ",") != "/a,/b" ||
		strings.Join(s.policy.Pinned, ",") != "/a/.git" || strings.Join(s.command, " ") != "ls -- -l" {
		t.Fatalf("got %+v, %v", s, err)
	}
	p := Policy{Write: []string{"/a"}, Pinned: []string{"/a", "/a/.git"}}
	if got := strings.Join(HelperArgs(p, 0), " "); got != "--abi 0 --write /a --pin /a/.git" {
		t.Errorf("HelperArgs = %s", got)
	}
	if s, err := parseHelperArgs(append(HelperArgs(p, 0), "--", "true")); err != nil || s.abi != 0 {
		t.Errorf("ABI 0 (no Landlock): %+v, %v", s, err)
	}
	p.AliveFD = 3
	if s, err := parseHelperArgs(append(HelperArgs(p, 0), "--", "true")); err != nil || s.policy.AliveFD != 3 {
		t.Errorf("--alive-fd: %+v, %v", s, err)
	}
	p.ReadOnly = []string{"/a/.git/hooks", "/a/.git/config"}
	if got := strings.Join(HelperArgs(p, 0), " "); got != "--abi 0 --alive-fd 3 --write /a --pin /a/.git --ro /a/.git/hooks --ro /a/.git/config" {
		t.Errorf("HelperArgs with read-only paths = %s", got)
	}
	p.Processes = 100
	if s, err := parseHelperArgs(append(HelperArgs(p, 0), "--", "true")); err != nil || s.policy.Processes != 100 {
		t.Errorf("--nproc: %+v, %v", s, err)
	}
	p.Processes = 0
	p.OuterNet = 4026531840
	if s, err := parseHelperArgs(append(HelperArgs(p, 0), "--", "true")); err != nil || s.policy.OuterNet != 4026531840 || s.policy.Network {
		t.Errorf("--outer-net: %+v, %v", s, err)
	}
	if p.Network = true; strings.Contains(strings.Join(HelperArgs(p, 0), " "), "--outer-net") {
		t.Errorf("--outer-net with the network allowed: %s", HelperArgs(p, 0))
	}
	p.Network, p.OuterNet = false, 0
	s, err = parseHelperArgs(append(HelperArgs(p, 0), "--await", "4"))
	if err != nil || s.await != 4 || s.command != nil || strings.Join(s.policy.ReadOnly, ",") != "/a/.git/hooks,/a/.git/config" {
		t.Errorf("--ro, --await: %+v, %v", s, err)
	}
	for _, bad := range [][]string{{"--abi", "4"}, {"--abi", "4", "--"}, {"--abi"}, {"--abi", "x", "--", "ls"}, {"--abi", "-1", "--", "ls"}, {"--write"}, {"--pin"}, {"--ro"}, {"--", "ls"},
		{"--abi", "0", "--alive-fd", "2", "--", "ls"}, {"--abi", "0", "--alive-fd", "x", "--", "ls"},
		{"--abi", "0", "--outer-net"}, {"--abi", "0", "--outer-net", "0", "--", "ls"}, {"--abi", "0", "--outer-net", "x", "--", "ls"},
		{"--abi", "0", "--await"}, {"--abi", "0", "--await", "2"}, {"--abi", "0", "--await", "x"}, {"--abi", "0", "--await", "4", "--", "ls"},
		{"--await", "4"}, {"--abi", "0", "--alive-fd", "4", "--await", "4"},
		{"--abi", "0", "--nproc", "0", "--", "ls"}, {"--abi", "0", "--nproc", "x", "--", "ls"}, {"--abi", "0", "--nproc"}} {
		if _, err := parseHelperArgs(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestWrapBubblewrap runs commands through Wrap with the real bubblewrap
// (and Landlock inside it when the kernel has it).
func TestWrapBubblewrap(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux")
	}
	needBubblewrap(t)
	root, out := t.TempDir(), outsideDir(t)
	hooks := filepath.Join(root, ".git", "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	sb := New(testHelper(t))
	p := Policy{Write: []string{root}, ReadOnly: []string{hooks}}
	wrap := func(p Policy, script string, args ...string) (string, int, string) {
		t.Helper()
		argv, mech, err := sb.Wrap(p, root, append([]string{"bash", "-c", script, "bash"}, args...))
		if err != nil {
			t.Fatal(err)
		}
		got, code := runArgv(t, argv, root)
		return got, code, mech
	}

	got, code, mech := wrap(p, `echo in > inside && echo ok; echo out > "$1/outside" || echo refused-outside; echo hook > .git/hooks/pre-commit || echo refused-hook; echo tmp > /tmp/scratch && echo tmp-ok`, out)
	t.Logf("mechanism %s, output:\n%s", mech, got)
	if _, err := LandlockABI(); err == nil && mech != MechBubblewrapLandlock {
		t.Errorf("mechanism %q with Landlock available", mech)
	}
	for _, want := range []string{"ok", "refused-outside", "refused-hook", "tmp-ok"} {
		if !strings.Contains(got, want) {
			t.Errorf("exit %d, output lacks %q:\n%s", code, want, got)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "inside")); string(b) != "in\n" {
		t.Errorf("inside = %q", b)
	}
	for _, f := range []string{filepath.Join(out, "outside"), filepath.Join(hooks, "pre-commit"), "/tmp/scratch"} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s exists on the host", f)
		}
	}

	port, accepted := listener(t)
	script := `exec 3<>/dev/tcp/127.0.0.1/` + strconv.Itoa(port) + ` && echo connected || echo refused`
	if got, _, _ := wrap(p, script); !strings.Contains(got, "refused") {
		t.Errorf("network denied: %q", got)
	}
	select {
	case <-accepted:
		t.Error("a connection arrived from a sandbox without network")
	case <-time.After(200 * time.Millisecond):
	}
	p.Network = true
	if got, _, _ := wrap(p, script); !strings.Contains(got, "connected") {
		t.Errorf("network allowed: %q", got)
	}
}

func TestWrapUnavailable(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, _, err := New(nil).Wrap(Policy{}, "/", []string{"true"})
	if runtime.GOOS == "linux" && (!errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "bwrap is not on PATH")) {
		t.Errorf("err = %v", err)
	}
}

// TestWrapPinsNeedHelper: without the helper nothing would check the pins.
func TestWrapPinsNeedHelper(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux")
	}
	needBubblewrap(t)
	root := t.TempDir()
	_, _, err := New(nil).Wrap(Policy{Write: []string{root}, Pinned: []string{filepath.Join(root, ".git")}}, root, []string{"true"})
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "helper") {
		t.Errorf("err = %v", err)
	}
	if _, _, err := New(nil).Wrap(Policy{Write: []string{root}, Pinned: []string{root}}, root, []string{"true"}); err != nil {
		t.Errorf("a pinned root is its own bind: %v", err)
	}
}

func TestBubblewrapArgs(t *testing.T) {
	p := Policy{
		Write:    []string{"/w/b", "/w"},
		Pinned:   []string{"/w/.git/objects", "/w", "/w/.git"},
		ReadOnly: []string{"/w/.git/objects/info", "/w/.git/hooks", "/w/.git/config"},
	}.clean()
	got := strings.Join(Bubblewrap{Path: "bwrap", UserNS: true}.Args(p, "/w/sub", "/tmp/x/juju", []string{"bash", "-c", "x"}), " ")
	// The root's own bind pins it; /w/b, a Write folder inside it, is not
	// bound again (outermost); .git is bound after the root and before
	// what is read-only inside it, objects before objects/info.
	want := "bwrap --ro-bind / / --dev /dev --proc /proc --ro-bind-try /proc/sys /proc/sys --tmpfs /tmp --ro-bind /tmp/x/juju /tmp/x/juju " +
		"--bind-try /w /w " +
		"--bind-try /w/.git /w/.git --bind-try /w/.git/objects /w/.git/objects " +
		"--ro-bind-try /w/.git/config /w/.git/config --ro-bind-try /w/.git/hooks /w/.git/hooks --ro-bind-try /w/.git/objects/info /w/.git/objects/info " +
		"--unshare-user --unshare-net " +
		"--unshare-pid --unshare-ipc --unshare-uts --unshare-cgroup-try --cap-drop ALL --new-session --die-with-parent " +
		"--setenv TMPDIR /tmp --chdir /w/sub -- bash -c x"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	p.Network = true
	got = strings.Join(Bubblewrap{Path: "bwrap"}.Args(p, "/w", "/usr/bin/juju", nil), " ")
	for _, not := range []string{"--unshare-net", "/usr/bin/juju", "--unshare-user"} {
		if strings.Contains(got, not) {
			t.Errorf("%q in %s", not, got)
		}
	}
}

func TestSeatbeltProfile(t *testing.T) {
	p := Policy{
		Write:    []string{"/Users/o/src", `/Users/o/we"ird`},
		Pinned:   []string{"/Users/o/src", "/Users/o/src/.git"},
		ReadOnly: []string{"/Users/o/src/.git/hooks", "/Users/o/src/.git/commondir"},
	}
	got := SeatbeltProfile(p)
	want := `(version 1)
(allow default)
(deny file-write*)
(allow file-write*
    (subpath "/Users/o/src")
    (subpath "/Users/o/we\"ird")
    (subpath "/private/tmp")
    (subpath "/private/var/folders")
    (literal "/dev/null")
    (literal "/dev/zero")
    (literal "/dev/dtracehelper")
    (regex #"^/dev/tty"))
(deny file-write*
    (subpath "/Users/o/src/.git/hooks")
    (subpath "/Users/o/src/.git/commondir")
    (literal "/Users/o/src")
    (literal "/Users/o/src/.git")
)
(deny network*)
(allow network* (remote unix-socket))
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	p.Network = true
	if strings.Contains(SeatbeltProfile(p), "network") {
		t.Error("network denied although allowed")
	}
}

func TestCaches(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{".cache/go-build", "go/pkg/mod", ".npm", ".cargo/registry", ".cache/pip"} {
		os.MkdirAll(filepath.Join(home, d), 0o755)
	}
	env := map[string]string{"HOME": home}
	got := caches(func(k string) string { return env[k] }, "linux")
	want := []string{".cache/go-build", "go/pkg/mod", ".npm", ".cargo/registry", ".cache/pip"}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if got[i] != filepath.Join(home, want[i]) {
			t.Errorf("got[%d] = %s", i, got[i])
		}
	}
	gm := t.TempDir()
	env["GOMODCACHE"] = gm
	if got := caches(func(k string) string { return env[k] }, "linux"); got[1] != gm {
		t.Errorf("GOMODCACHE ignored: %q", got)
	}
}

// TestCachesFollowUserCacheDir: Go's build cache and pip's lie in the
// user cache folder as Go's os.UserCacheDir finds it: $XDG_CACHE_HOME when
// set (so $XDG_CACHE_HOME/go-build, not $HOME/.cache/go-build, is the one
// a build writes), ~/Library/Caches on macOS; a relative XDG_CACHE_HOME
// is no cache at all. npm and cargo ignore XDG.
func TestCachesFollowUserCacheDir(t *testing.T) {
	home, xdg := t.TempDir(), t.TempDir()
	for _, d := range []string{filepath.Join(home, ".cache/go-build"), filepath.Join(home, ".cache/pip"),
		filepath.Join(xdg, "go-build"), filepath.Join(xdg, "pip"), filepath.Join(home, ".npm"),
		filepath.Join(home, "Library/Caches/go-build"), filepath.Join(home, "Library/Caches/pip")} {
		os.MkdirAll(d, 0o755)
	}
	for _, tc := range []struct {
		goos, xdg string
		want      []string
	}{
		{"linux", xdg, []string{filepath.Join(xdg, "go-build"), filepath.Join(home, ".npm"), filepath.Join(xdg, "pip")}},
		{"linux", "", []string{filepath.Join(home, ".cache/go-build"), filepath.Join(home, ".npm"), filepath.Join(home, ".cache/pip")}},
		{"linux", "rel/cache", []string{filepath.Join(home, ".npm")}},
		{"darwin", xdg, []string{filepath.Join(home, "Library/Caches/go-build"), filepath.Join(home, ".npm"), filepath.Join(home, "Library/Caches/pip")}},
	} {
		env := map[string]string{"HOME": home, "XDG_CACHE_HOME": tc.xdg}
		if got := caches(func(k string) string { return env[k] }, tc.goos); !slices.Equal(got, tc.want) {
			t.Errorf("%s, XDG_CACHE_HOME=%q: got %q, want %q", tc.goos, tc.xdg, got, tc.want)
		}
	}
	npm := t.TempDir()
	env := map[string]string{"HOME": home, "NPM_CONFIG_CACHE": npm}
	if got := caches(func(k string) string { return env[k] }, "linux"); !slices.Contains(got, npm) {
		t.Errorf("NPM_CONFIG_CACHE ignored: %q", got)
	}
}

// TestCleanResolvesOnlyWriteFolders: Policy.clean resolves links in the
// Write folders only; the pinned, read-only and hidden paths are bound
// where they are named, so clean looks nothing up for them, and its work
// for them does not grow with how deep they lie. Each Wrap and WrapAwaiting
// cleans the policy, on a sandboxed command's path (see RATIONALE, "A
// sandbox's policy is cleaned without looking at its bound paths").
func TestCleanResolvesOnlyWriteFolders(t *testing.T) {
	dir := t.TempDir()
	policyAt := func(depth int) Policy {
		deep := dir
		for i := range depth {
			deep = filepath.Join(deep, "d"+strconv.Itoa(i))
		}
		if err := os.MkdirAll(filepath.Join(deep, ".git", "objects"), 0o755); err != nil {
			t.Fatal(err)
		}
		var p Policy
		p.AddRoot(deep)
		p.Hidden = []string{filepath.Join(deep, "private")}
		p.Write = []string{dir} // outermost: the same Write folder at every depth
		return p
	}
	allocs := func(p Policy) float64 {
		return testing.AllocsPerRun(20, func() { p.clean() })
	}
	shallow, deep := allocs(policyAt(1)), allocs(policyAt(12))
	if deep != shallow {
		t.Errorf("clean of a policy 12 folders deep made %v allocations, one folder deep %v: it looks up the bound paths", deep, shallow)
	}
	// A link among the read-only paths stays as named (bubblewrap binds
	// the path, and the helper checks the path).
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "d0"), link); err != nil {
		t.Fatal(err)
	}
	if got := (Policy{ReadOnly: []string{link}, Pinned: []string{link}}).clean(); got.ReadOnly[0] != link || got.Pinned[0] != link {
		t.Errorf("clean resolved a bound path: %+v", got)
	}
}

// TestWrapHiddenFiles: a HiddenFiles file cannot be opened, read or
// written, nor removed, by the confined command, outside the Write
// folders and inside one, whose writable bind comes first.
func TestWrapHiddenFiles(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux")
	}
	needBubblewrap(t)
	root, out := outsideDir(t), outsideDir(t)
	inside, outside := filepath.Join(root, "token"), filepath.Join(out, "token")
	for _, f := range []string{inside, outside} {
		if err := os.WriteFile(f, []byte("TOKEN-OF-THE-OWNER\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p := Policy{Write: []string{root}, HiddenFiles: []string{inside, outside}}
	got, code, mech := runWrapped(t, New(testHelper(t)), p, root,
		`for f in `+inside+` `+outside+`; do cat $f; echo x > $f || echo refused-write; rm -f $f || echo refused-rm; done; echo end`)
	if code != 0 || strings.Contains(got, "TOKEN") || strings.Count(got, "refused-write") != 2 || strings.Count(got, "refused-rm") != 2 || !strings.HasSuffix(got, "end\n") {
		t.Fatalf("%s: exit %d, output:\n%s", mech, code, got)
	}
	for _, f := range []string{inside, outside} {
		if b, err := os.ReadFile(f); err != nil || string(b) != "TOKEN-OF-THE-OWNER\n" {
			t.Errorf("%s after the command: %q %v", f, b, err)
		}
	}
}

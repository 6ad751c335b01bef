package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Mechanisms, as ExecResult.Sandbox reports them.
const (
	MechBubblewrapLandlock = "bubblewrap+landlock"
	MechBubblewrap         = "bubblewrap"
	MechSeatbelt           = "sandbox-exec"
	MechNone               = "none"
)

// Policy is what a confined command may do. Reads are not confined.
// AddRoot fills it for a workspace root.
type Policy struct {
	// Write lists the folders the command may write: the workspace roots
	// and the declared caches. Everything else is read-only, and /tmp is a
	// private, empty tmpfs.
	Write []string
	// Pinned lists paths inside Write that stay writable but cannot be
	// renamed, removed or replaced (each root and its .git folder: a .git
	// swapped for a copy would carry a hook of the command's choosing).
	// Each must be a real folder, never a symbolic link: bubblewrap binds
	// it writable onto itself, and a link would carry that bind to its
	// target.
	Pinned []string
	// ReadOnly lists paths inside Write that stay read-only, folders or
	// files (each root's .git/hooks, .git/config and the rest of
	// GitControl: a writable hook or configuration is code execution).
	ReadOnly []string
	// Hidden lists folders outside Write the command finds empty, each
	// covered with a tmpfs of its own, read-only under Landlock: the
	// session's runtime folder, whose sockets (the D-Bus session bus and
	// through it systemd's user manager) would run a command outside the
	// sandbox. Linux only.
	Hidden []string
	// HiddenFiles lists files the command cannot read, each covered with
	// /dev/null on a read-only, nodev mount (so opening it is refused):
	// juju serve's --token-file, which would let a command call juju as
	// the owner, and the sockets of the owner's ssh agent and gpg-agent
	// (so connecting is refused), which would let it use the owner's
	// keys. Each must exist and lie outside /tmp and Hidden, where there
	// is nothing to cover. Linux only.
	HiddenFiles []string
	// Network allows the network; it is denied otherwise.
	Network bool
	// AliveFD, when not 0, is a file descriptor (3 or more) the command is
	// started with: the read end of a pipe whose write end only juju
	// holds. juju's helper, inside the sandbox, runs nothing once that
	// pipe is at its end (juju died while the sandbox was being set up;
	// see HelperMain). Without the helper it is not used.
	AliveFD int
	// Processes, when not 0, is the most processes and threads the
	// command may have at once (RLIMIT_NPROC, which juju's helper sets in
	// the sandbox's user namespace; see ProcessLimit). Sandbox.Wrap sets it
	// where bubblewrap gives the command a user namespace.
	Processes int
	// OuterNet, when not 0 and Network is false, is the inode of juju's
	// own network namespace (NetNamespace). The helper then leaves TCP
	// open when it proves the command's namespace is another, holding no
	// interface but the loopback (bubblewrap's --unshare-net makes it so):
	// there a server on 127.0.0.1 (a test's httptest server, a dev server
	// and its client in one command) reaches only the command's own
	// processes, and Landlock's denial of every bind and connect failed
	// `go test` of any package with such a test. Where that is not proven,
	// Landlock denies TCP as before. Sandbox.Wrap sets it.
	OuterNet uint64
	// loopback is the helper's proof of OuterNet's case (privateLoopback).
	loopback bool
}

// ErrUnavailable wraps every reason a command cannot be confined here.
var ErrUnavailable = errors.New("no working command sandbox on this machine")

// Sandbox confines commands with what this machine proved to have. It
// detects once, on first use, and is safe for concurrent use.
type Sandbox struct {
	helper []string        // argv prefix of the re-executed juju helper
	find   func() []string // finds helper on first use (NewDefault)

	once     sync.Once
	bwrap    Availability
	landlock Availability
	seatbelt Availability
	nproc    int    // ProcessLimit, read at detection
	netns    uint64 // NetNamespace, juju's own, read at detection
}

// New returns a Sandbox whose Landlock layer and checks run in helper, the
// argv prefix that re-executes juju's hidden helper command (normally
// [juju-executable, "__sandbox"]). A nil helper leaves Landlock out and
// cannot confine a policy with Pinned paths.
func New(helper []string) *Sandbox {
	return &Sandbox{helper: helper}
}

// NewDefault is New(DefaultHelper()), with the helper found when the
// sandbox is first used rather than now: checking the standalone helper
// runs it (a few milliseconds), which a juju that starts to answer its
// client's handshake should not wait for.
func NewDefault() *Sandbox {
	return &Sandbox{find: DefaultHelper}
}

// DefaultHelper is the helper of the running juju executable: the
// juju-sandbox program beside it when that one can be trusted and speaks
// this juju's HelperProtocol (see StandaloneHelper), else juju itself
// re-executed as [juju-executable, HelperCommand].
func DefaultHelper() []string {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	return DefaultHelperFor(exe)
}

// DefaultHelperFor is DefaultHelper for the juju executable exe.
func DefaultHelperFor(exe string) []string {
	if h := StandaloneHelper(exe); h != "" {
		return []string{h}
	}
	return []string{exe, HelperCommand}
}

// HelperProgram is the file name of the standalone helper, looked for
// beside juju's executable.
const HelperProgram = "juju-sandbox"

// HelperProtocol names the helper's command line (HelperArgs) and
// behaviour; a standalone helper that answers another number to
// --protocol was built from another juju and is not used.
const HelperProtocol = 7

// StandaloneHelper returns the path of the juju-sandbox beside exe when it
// may stand in for `exe __sandbox`: a StandaloneCandidate answering
// HelperProtocol. Else "". It runs the helper once (3-20 ms here, more on
// a loaded machine).
func StandaloneHelper(exe string) string {
	path := StandaloneCandidate(exe)
	if path == "" {
		return ""
	}
	out, err := exec.Command(path, "--protocol").Output()
	if err != nil || strings.TrimSpace(string(out)) != strconv.Itoa(HelperProtocol) {
		return ""
	}
	return path
}

// StandaloneCandidate returns the path of the juju-sandbox beside exe
// when it is a regular file with the same owner as exe (or root's), that
// neither its group nor others may write, in a folder they may not write
// either: the helper StandaloneHelper uses if it answers HelperProtocol.
// Else "". It runs nothing, so that a juju starting up can name the
// helper it may run without waiting for it (host's ownPrograms).
func StandaloneCandidate(exe string) string {
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	path := filepath.Join(filepath.Dir(exe), HelperProgram)
	if !trustedLike(path, exe) || !trustedLike(filepath.Dir(path), exe) {
		return ""
	}
	return path
}

// HelperCommand is the hidden juju subcommand that applies Landlock and
// then execs the command (see HelperMain).
const HelperCommand = "__sandbox"

func (s *Sandbox) detect() {
	s.once.Do(func() {
		if s.find != nil {
			s.helper = s.find()
		}
		ctx := context.Background()
		switch runtime.GOOS {
		case "linux":
			s.bwrap = DetectBubblewrap(ctx)
			s.landlock = DetectLandlock()
			s.nproc = ProcessLimit()
			s.netns = NetNamespace()
		case "darwin":
			s.seatbelt = DetectSeatbelt(ctx)
		}
	})
}

// Available reports what the sandbox would use, or why it cannot confine
// anything: the mechanism name, or "" and the reason.
func (s *Sandbox) Available() (string, error) {
	s.detect()
	switch runtime.GOOS {
	case "linux":
		if !s.bwrap.Available {
			return "", fmt.Errorf("%w: %s", ErrUnavailable, s.bwrap.Reason)
		}
		if s.landlock.Available && s.helper != nil {
			return MechBubblewrapLandlock, nil
		}
		return MechBubblewrap, nil
	case "darwin":
		if !s.seatbelt.Available {
			return "", fmt.Errorf("%w: %s", ErrUnavailable, s.seatbelt.Reason)
		}
		return MechSeatbelt, nil
	}
	return "", fmt.Errorf("%w: juju has no command sandbox for %s", ErrUnavailable, runtime.GOOS)
}

// Wrap returns the argv that runs argv (in cwd) confined by p, and the
// mechanism used, or an error wrapping ErrUnavailable.
func (s *Sandbox) Wrap(p Policy, cwd string, argv []string) ([]string, string, error) {
	mech, err := s.Available()
	if err != nil {
		return nil, "", err
	}
	p = p.clean()
	switch mech {
	case MechSeatbelt:
		return append([]string{s.seatbelt.Path, "-p", SeatbeltProfile(p)}, argv...), mech, nil
	}
	if s.helper == nil {
		if len(p.pinBinds()) > 0 {
			// Nothing would check the pins (see checkMounts).
			return nil, "", fmt.Errorf("%w: without juju's helper the sandbox cannot check that it pinned %s", ErrUnavailable, p.pinBinds()[0])
		}
		return s.bubblewrap().Args(p, cwd, "", argv), mech, nil
	}
	// The helper runs under bubblewrap with Landlock, or (ABI 0) without:
	// either way it checks the binds before it starts the command.
	p.Processes = s.processes()
	if !p.Network {
		p.OuterNet = s.netns
	}
	abi := 0
	if mech == MechBubblewrapLandlock {
		abi = s.landlockABI()
	}
	inner := append(append([]string(nil), s.helper...), HelperArgs(p, abi)...)
	inner = append(append(inner, "--"), argv...)
	return s.filtered(abi, s.bubblewrap().Args(p, cwd, s.helper[0], inner)), mech, nil
}

// filtered returns the bubblewrap command line bw as juju runs it under
// Landlock ABI abi. Without Landlock (abi 0) the helper's seccomp filter
// alone would leave out bubblewrap's init, PID 1 of the sandbox, which
// bubblewrap forks before it starts the helper: the command's user,
// dumpable, so a command could ptrace it (or write its /proc/1/mem) and
// have it chmod a file set-user-ID. So the helper starts bubblewrap then
// (BubblewrapFlag), handing it the same filter with --seccomp, which
// bubblewrap installs in its init and before it starts the helper. Under
// Landlock a confined process cannot ptrace one outside its domain, and
// bubblewrap is started as it is.
func (s *Sandbox) filtered(abi int, bw []string) []string {
	if abi > 0 || runtime.GOOS != "linux" {
		return bw
	}
	return append(append(append([]string(nil), s.helper...), BubblewrapFlag), bw...)
}

// WrapAwaiting returns the bubblewrap command line of a sandbox built
// ahead of its command: the same sandbox Wrap builds for p, with the
// helper waiting for the command on descriptor fd (HelperMain's --await)
// in the folder "/", where it changes to the command's own once the
// command comes. It fails when the sandbox is not bubblewrap run through
// juju's helper. Two calls with the same policy, made while the file
// system did not change, return the same command line.
func (s *Sandbox) WrapAwaiting(p Policy, fd int) ([]string, error) {
	mech, err := s.Available()
	if err != nil {
		return nil, err
	}
	if mech != MechBubblewrap && mech != MechBubblewrapLandlock || s.helper == nil {
		return nil, fmt.Errorf("%w: only bubblewrap with juju's helper is built ahead of its command", ErrUnavailable)
	}
	p = p.clean()
	p.Processes = s.processes()
	if !p.Network {
		p.OuterNet = s.netns
	}
	abi := 0
	if mech == MechBubblewrapLandlock {
		abi = s.landlockABI()
	}
	inner := append(append([]string(nil), s.helper...), HelperArgs(p, abi)...)
	inner = append(inner, "--await", strconv.Itoa(fd))
	return s.filtered(abi, s.bubblewrap().Args(p, "/", s.helper[0], inner)), nil
}

// Reaper is the argv prefix that runs a bubblewrap under the reaper
// (ReaperMain), or nil when there is none: not on Linux, or without the
// standalone helper (juju re-executed would cost 15 ms a command).
func (s *Sandbox) Reaper() []string {
	s.detect()
	if len(s.helper) != 1 || runtime.GOOS != "linux" {
		return nil
	}
	return []string{s.helper[0]}
}

// processes is the process limit a command's helper sets: ProcessLimit
// where bubblewrap makes the command a user namespace, in which the kernel
// counts the sandbox's processes apart from the owner's others; 0 (none)
// without one, where the limit would count every process of the owner's.
func (s *Sandbox) processes() int {
	if !s.bwrap.UserNS {
		return 0
	}
	return s.nproc
}

func (s *Sandbox) bubblewrap() Bubblewrap {
	return Bubblewrap{Path: s.bwrap.Path, UserNS: s.bwrap.UserNS}
}

func (s *Sandbox) landlockABI() int {
	var n int
	fmt.Sscan(s.landlock.Version, &n)
	return n
}

// Report returns what detection found, for juju doctor.
func (s *Sandbox) Report() []Availability {
	s.detect()
	switch runtime.GOOS {
	case "linux":
		return []Availability{s.bwrap, s.landlock}
	case "darwin":
		return []Availability{s.seatbelt}
	}
	return nil
}

// clean makes every path absolute and clean, drops duplicates and sorts
// them (shorter first, so a folder's bind comes before those inside it).
// A Write folder inside another is dropped first, by its path as given:
// the outer bind already makes it writable, and a command may replace
// what leads to it (a folder of the outer one moved away, a link put in
// its place), so a bind of its own, resolved when the next command's
// sandbox is built, would carry writes wherever that link points. The
// Write folders left, the owner's, are resolved through symbolic links (a
// bind lands where its path leads, and the helper checks it there);
// Pinned and ReadOnly paths are not: they stand for themselves (AddRoot
// resolves the root they are in).
func (p Policy) clean() Policy {
	return Policy{Write: cleanPaths(outermost(p.Write), true), Pinned: cleanPaths(p.Pinned, false), ReadOnly: cleanPaths(p.ReadOnly, false), Hidden: cleanPaths(p.Hidden, false), HiddenFiles: cleanPaths(p.HiddenFiles, false), Network: p.Network, AliveFD: p.AliveFD, Processes: p.Processes, OuterNet: p.OuterNet}
}

// outermost drops the paths that lie inside another of paths.
func outermost(paths []string) []string {
	abs := make([]string, 0, len(paths))
	for _, d := range paths {
		if d == "" {
			continue
		}
		if a, err := filepath.Abs(d); err == nil {
			abs = append(abs, a)
		}
	}
	var out []string
	for i, d := range abs {
		nested := false
		for j, o := range abs {
			if i != j && d != o && under(d, o) {
				nested = true
				break
			}
		}
		if !nested {
			out = append(out, d)
		}
	}
	return out
}

// pinBinds are the Pinned paths bubblewrap binds onto themselves: those
// that are not Write folders, each already a mount point of its own bind.
func (p Policy) pinBinds() []string {
	var out []string
	for _, d := range p.Pinned {
		if !slices.Contains(p.Write, d) {
			out = append(out, d)
		}
	}
	return out
}

func cleanPaths(in []string, resolve bool) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range in {
		if d == "" {
			continue
		}
		d, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		if resolve {
			if r, err := filepath.EvalSymlinks(d); err == nil {
				d = r
			}
		}
		if seen[d] {
			continue
		}
		seen[d] = true
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		if ci, cj := strings.Count(out[i], "/"), strings.Count(out[j], "/"); ci != cj {
			return ci < cj
		}
		return out[i] < out[j]
	})
	return out
}

// Caches returns the package-manager caches a confined command may write,
// those that exist: Go's build and module caches, npm's, cargo's registry
// and git checkouts, pip's. Each is found by its tool's own rule, so the
// folder bound writable is the one the tool uses: Go's build cache and
// pip's lie in the user cache folder (see userCacheDir), npm's and cargo's
// under HOME. getenv is os.Getenv outside tests.
func Caches(getenv func(string) string) []string {
	return caches(getenv, runtime.GOOS)
}

func caches(getenv func(string) string, goos string) []string {
	home := getenv("HOME")
	userCache := userCacheDir(getenv, goos)
	var c []string
	add := func(env string, base string, def ...string) {
		if v := getenv(env); v != "" {
			c = append(c, filepath.SplitList(v)...)
			return
		}
		if base != "" {
			c = append(c, filepath.Join(append([]string{base}, def...)...))
		}
	}
	add("GOCACHE", userCache, "go-build")
	switch gopath := getenv("GOPATH"); {
	case getenv("GOMODCACHE") != "":
		c = append(c, getenv("GOMODCACHE"))
	case gopath != "":
		c = append(c, filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod"))
	case home != "":
		c = append(c, filepath.Join(home, "go", "pkg", "mod"))
	}
	// npm reads its settings from the environment whatever the case of
	// the prefix; it does not follow XDG.
	if v := getenv("npm_config_cache"); v != "" {
		c = append(c, v)
	} else {
		add("NPM_CONFIG_CACHE", home, ".npm")
	}
	if v := getenv("CARGO_HOME"); v != "" {
		c = append(c, filepath.Join(v, "registry"), filepath.Join(v, "git"))
	} else if home != "" {
		c = append(c, filepath.Join(home, ".cargo", "registry"), filepath.Join(home, ".cargo", "git"))
	}
	add("PIP_CACHE_DIR", userCache, "pip")
	var out []string
	for _, d := range c {
		if !filepath.IsAbs(d) {
			continue // never bind a folder that depends on the command's cwd
		}
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// userCacheDir is os.UserCacheDir for the environment getenv reads:
// $HOME/Library/Caches on macOS; elsewhere $XDG_CACHE_HOME when it is set
// (Go uses no cache when it is relative, so neither does juju), else
// $HOME/.cache. "" when there is none. Go's build cache and pip's live
// there.
func userCacheDir(getenv func(string) string, goos string) string {
	home := getenv("HOME")
	if goos == "darwin" || goos == "ios" {
		if home == "" {
			return ""
		}
		return filepath.Join(home, "Library", "Caches")
	}
	if x := getenv("XDG_CACHE_HOME"); x != "" {
		if !filepath.IsAbs(x) {
			return ""
		}
		return x
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".cache")
}

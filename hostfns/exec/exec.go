package exec

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/proc"
	"github.com/jujutools/juju/sandbox"
	"github.com/jujutools/juju/sdk/abi"
)

// Defaults of Options.
const (
	DefaultBackgroundAfter = 50 * time.Second
	DefaultTimeout         = 10 * time.Minute // a command not asked to run in the background
	MaxTimeout             = 2 * time.Hour
	DefaultMaxOutput       = 16 << 10  // bytes of each stream in a reply, head and tail
	MaxMaxOutput           = 64 << 10  // the most a request may ask for
	DefaultReadLimit       = 32 << 10  // JobOutput's default
	MaxReadLimit           = 256 << 10 // JobOutput's most
	DefaultMaxJobs         = 64        // finished jobs kept of each principal, with their logs
	DefaultMaxLog          = 256 << 20 // bytes of output kept of one command, both streams
	DefaultMaxKept         = 1 << 30   // bytes of each principal's finished jobs' logs kept together
	MaxRunning             = 32        // jobs of one principal running at once
	MaxWait                = 10 * time.Minute
	// deadlineMargin is left between a wait and the plugin call's deadline,
	// for the plugin to answer.
	deadlineMargin = 750 * time.Millisecond
)

// Options configure the command host functions.
type Options struct {
	// JobsDir holds the job logs; it is created (0700) on the first job
	// and removed by Close. It must be outside the roots.
	JobsDir string
	// BackgroundAfter is how long a call waits before it hands a command
	// still running to the background (DefaultBackgroundAfter when 0).
	BackgroundAfter time.Duration
	// Timeout is the timeout of a command given none that was not asked
	// to run in the background (DefaultTimeout when 0); one asked to
	// (ExecRequest.Background) has none: it runs until it ends, is
	// cancelled, or juju ends.
	Timeout time.Duration
	// Sandbox is the owner's setting: off, prefer or require ("" is off).
	Sandbox sandbox.Mode
	// Sandboxer confines commands; nil means no sandbox on this machine.
	Sandboxer *sandbox.Sandbox
	// Caches are the folders a sandboxed command may write besides the
	// roots (sandbox.Caches by default when nil): resolved once, and left
	// out when inside a root or juju's folders, or holding one (guard.go).
	Caches []string
	// Private are juju's own folders (configuration, state, compilation
	// cache, plugins): where one lies inside a root, a confined command
	// may not write it, nor move away a folder on the way to it (guard.go).
	Private []string
	// Files are juju's own files outside those folders (its config file,
	// its log file): where one lies inside a root, a confined command may
	// not write, replace or remove it (guard.go).
	Files []string
	// HiddenFiles are files outside the roots a confined command cannot
	// read (juju serve's --token-file): each is covered for every command
	// while it exists (sandbox.Policy.HiddenFiles), as are the sockets of
	// the ssh agent and gpg-agent Env names or places (agentSockets).
	HiddenFiles []string
	// Programs are juju's own executables, which it runs outside any
	// sandbox (juju itself, its sandbox helper): where one lies inside a
	// root, a confined command may not replace it (guard.go).
	Programs []string
	// Env is the environment children start from, before Scrub
	// (os.Environ() when nil).
	Env []string
	// MaxJobs bounds the finished jobs kept of each principal
	// (DefaultMaxJobs when 0).
	MaxJobs int
	// MaxLog bounds the output of one command, its two logs together
	// (DefaultMaxLog when 0): a command that writes without end is killed
	// once it passes it, rather than fill the owner's disk (and the
	// journal's) until its timeout.
	MaxLog int64
	// MaxKept bounds the logs of each principal's finished jobs kept, together
	// (DefaultMaxKept when 0): past it the oldest finished jobs are
	// dropped with their logs, as past MaxJobs. The newest finished job
	// is kept whatever its size, so its output can still be read.
	MaxKept int64
	// StandbyIdle is how long the standby reaper started for the next
	// sandboxed command waits for it before it is let go
	// (DefaultStandbyIdle when 0; kept until Close when negative).
	StandbyIdle time.Duration
	// Ended, when set, is called after each command has ended and its
	// process group is gone: a job left running in the background may
	// have changed the workspace until then (the host bumps the
	// approvals' epoch).
	Ended  func()
	Logger *slog.Logger
}

// Manager runs the commands and keeps their jobs. It is safe for
// concurrent use.
type Manager struct {
	pol  *policy.Policy
	opts Options
	log  *slog.Logger
	env  []string
	// path is the PATH commands get (in env), on which their programs
	// are looked up.
	path string

	// caches are the caches a confined command may write (safeCaches), and
	// guard keeps juju's own folders inside the roots from it.
	caches []string
	guard  privateGuard
	// hidden are the session's runtime folders a confined command finds
	// empty (runtimeFolders).
	hidden []string
	// hiddenFiles are Options.HiddenFiles and the agents' sockets,
	// resolved (resolveFiles).
	hiddenFiles []string

	// alive is the read end of a pipe whose write end (aliveW) only juju
	// holds: a sandboxed command gets it (sandbox.Policy.AliveFD), and
	// juju's helper runs nothing once juju is gone.
	alive, aliveW *os.File

	// warmUsed counts the commands handed to a sandbox built ahead of
	// them (see standby.go).
	warmUsed atomic.Int64

	// devNull is every unsandboxed command's stdin, opened once (nil if
	// it could not be: os/exec then opens /dev/null per command).
	devNull *os.File

	// noReaper is set once the kernel refused juju the namespaces of the
	// reaper (no CAP_SYS_ADMIN): sandboxed jobs then start bubblewrap
	// directly.
	noReaper atomic.Bool

	// standbyCh hands over the reaper started ahead of the next
	// sandboxed command (see standby.go); standbyPending (under mu) is
	// true from its start until it is taken. standbyGen (under mu)
	// counts the standbys started, so that the timer that lets one go
	// when idle never takes the next.
	standbyCh      chan *standby
	standbyPending bool
	standbyGen     int
	standbyIdle    *time.Timer

	// unlockDir releases the lock of the jobs folder (makeJobsDir), held
	// from its making until Close; under mu.
	unlockDir func()

	// nonce tells this Manager's jobs (jobVar) from another juju's.
	nonce string

	mu     sync.Mutex
	jobs   map[string]*job
	order  []*job // oldest first
	seq    int
	closed bool
}

// New returns a Manager over the path policy p.
func New(p *policy.Policy, opts Options) *Manager {
	if opts.BackgroundAfter <= 0 {
		opts.BackgroundAfter = DefaultBackgroundAfter
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxJobs <= 0 {
		opts.MaxJobs = DefaultMaxJobs
	}
	if opts.MaxLog == 0 {
		opts.MaxLog = DefaultMaxLog
	}
	if opts.MaxKept <= 0 {
		opts.MaxKept = DefaultMaxKept
	}
	if opts.StandbyIdle == 0 {
		opts.StandbyIdle = DefaultStandbyIdle
	}
	if opts.Env == nil {
		opts.Env = os.Environ()
	}
	if opts.Caches == nil {
		opts.Caches = sandbox.Caches(os.Getenv)
	}
	m := &Manager{pol: p, opts: opts, log: opts.Logger, env: noEditor(sandbox.Scrub(opts.Env)), jobs: map[string]*job{}, standbyCh: make(chan *standby, 1)}
	for _, kv := range m.env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			m.path = v
		}
	}
	if m.log == nil {
		m.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	var roots []string
	for _, r := range p.Roots() {
		roots = append(roots, r.Real)
	}
	own := append(append([]string(nil), opts.Programs...), opts.Files...)
	m.caches = safeCaches(opts.Caches, roots, append(append([]string(nil), opts.Private...), ownPaths(own)...))
	m.guard = guardPrivate(opts.Private, own, roots)
	m.hidden = runtimeFolders(opts.Env, append(append(append(roots, m.caches...), opts.Private...), ownPaths(own)...))
	keepOwn := append(append(append(append([]string(nil), roots...), m.caches...), m.hidden...), ownPaths(opts.Programs)...)
	m.hidden = append(m.hidden, ownFolders(opts.Private, keepOwn)...)
	m.hiddenFiles = resolveFiles(append(append([]string(nil), opts.HiddenFiles...), agentSockets(opts.Env)...))
	for _, d := range m.guard.unguarded {
		m.log.Warn("a folder of juju's inside a workspace root is reached through a link, which a confined command could point elsewhere; keep juju's folders outside the roots (JUJU_HOME)", "folder", d)
	}
	var nonce [8]byte
	rand.Read(nonce[:])
	m.nonce = hex.EncodeToString(nonce[:])
	// Before any command starts: only a process started after it looks
	// for a subreaper above it.
	proc.Subreap()
	// Nor does any command get a descriptor juju inherited from whatever
	// started it (TestSandboxGetsNoInheritedFiles).
	proc.CloseInheritedOnExec()
	var err error
	if m.devNull, err = openFile(os.DevNull, os.O_RDONLY, 0); err != nil {
		m.devNull = nil
	}
	if m.alive, m.aliveW, err = os.Pipe(); err != nil {
		m.log.Warn("no lifeline for sandboxed commands", "err", err)
	}
	return m
}

// aliveFD is the descriptor a sandboxed job gets its lifeline on: the
// first of exec.Cmd.ExtraFiles.
const aliveFD = 3

// Funcs returns the host functions.
func (m *Manager) Funcs() []hostfns.Func { return FuncsOf(func() *Manager { return m }) }

// FuncsOf returns the host functions of the manager get returns at each
// call: a host can make its manager when the first call needs it, not
// before it answers its client (RATIONALE, "The command manager is made
// after the handshake").
func FuncsOf(get func() *Manager) []hostfns.Func {
	return []hostfns.Func{
		{Name: abi.FnExec, Capability: abi.CapExec, Handle: hostfns.Typed(func(ctx context.Context, req *abi.ExecRequest, body []byte) (*abi.ExecResult, []byte, *abi.Error) {
			return get().execArgv(ctx, req, body)
		})},
		{Name: abi.FnExecShell, Capability: abi.CapExecShell, Handle: hostfns.Typed(func(ctx context.Context, req *abi.ExecRequest, body []byte) (*abi.ExecResult, []byte, *abi.Error) {
			return get().execShell(ctx, req, body)
		})},
		{Name: abi.FnJob, Capability: abi.CapExec, Handle: hostfns.Typed(func(ctx context.Context, req *abi.JobRequest, body []byte) (*abi.JobResult, []byte, *abi.Error) {
			return get().jobOp(ctx, req, body)
		})},
	}
}

func (m *Manager) execArgv(ctx context.Context, req *abi.ExecRequest, _ []byte) (*abi.ExecResult, []byte, *abi.Error) {
	if req.Program == "" || req.Command != "" {
		return nil, nil, abi.Errorf(abi.InvalidArgument, "give the program to run and its arguments (program, args); a shell string needs run_command")
	}
	argv := append([]string{req.Program}, req.Args...)
	return m.run(ctx, req, argv, displayArgv(argv))
}

func (m *Manager) execShell(ctx context.Context, req *abi.ExecRequest, _ []byte) (*abi.ExecResult, []byte, *abi.Error) {
	if strings.TrimSpace(req.Command) == "" || req.Program != "" || len(req.Args) > 0 {
		return nil, nil, abi.Errorf(abi.InvalidArgument, "give the shell command line to run (command); it runs with bash -c")
	}
	return m.run(ctx, req, []string{"bash", "-c", req.Command}, req.Command)
}

// run starts one command and waits for it as the request says.
func (m *Manager) run(ctx context.Context, req *abi.ExecRequest, argv []string, display string) (*abi.ExecResult, []byte, *abi.Error) {
	if aerr := argvError(argv, req.Command != ""); aerr != nil {
		return nil, nil, aerr
	}
	// A command asked to run in the background is a server, a watcher or
	// a long build the caller follows: it runs until it ends, is
	// cancelled, or juju ends, unless it was given a timeout. One that
	// only outlasted its wait keeps the default.
	timeout := m.opts.Timeout
	switch {
	case req.TimeoutMs < 0 || req.WaitMs < 0 || req.MaxOutput < 0:
		return nil, nil, abi.Errorf(abi.InvalidArgument, "timeoutMs, waitMs and maxOutput cannot be negative")
	case req.TimeoutMs > 0:
		timeout = hostfns.Millis(req.TimeoutMs, MaxTimeout)
	case req.Background:
		timeout = 0
	}
	cwd, display2, aerr := m.cwd(req.Cwd)
	if aerr != nil {
		return nil, nil, aerr
	}
	j, aerr := m.start(principal(ctx), argv, display, cwd, display2, timeout, req.Sandbox, req.Network)
	if aerr != nil {
		return nil, nil, aerr
	}
	j.mu.Lock()
	j.background = req.Background
	j.mu.Unlock()
	if req.Background && req.Bound {
		// A command of run_commands stops with a call its client
		// cancelled, as run_command's does, unless the call released it
		// before it answered (JobRelease).
		j.mu.Lock()
		j.bound = true
		j.mu.Unlock()
		context.AfterFunc(ctx, func() {
			j.mu.Lock()
			bound := j.bound
			j.mu.Unlock()
			if bound {
				j.kill(abi.JobKilled)
			}
		})
	}
	if !req.Background {
		wait := m.opts.BackgroundAfter
		if req.WaitMs > 0 {
			wait = hostfns.Millis(req.WaitMs, wait)
		}
		j.await(ctx, m.callWait(ctx, wait))
		if errors.Is(ctx.Err(), context.Canceled) {
			// The client cancelled the call (notifications/cancelled: the
			// user stopped it): the command stops with it rather than run
			// on as a job nobody was told of.
			j.kill(abi.JobKilled)
		}
	}
	res := j.result(maxOutput(req.MaxOutput))
	if res.State == abi.JobRunning {
		note := fmt.Sprintf("still running: it continues in the background as %s; use job_wait, job_status, job_output or cancel_job with this jobId", j.id)
		res.Note = joinNote(res.Note, note)
	}
	return &res, nil, nil
}

// principal is who a call's jobs belong to: a job is listed, read, waited
// for and cancelled only by the principal that started it, so an OAuth
// client of juju serve sees neither the owner's local jobs nor another
// client's.
func principal(ctx context.Context) string {
	c, _ := hostfns.CallerFrom(ctx)
	return c.Principal
}

// cwd resolves the working folder through the path policy.
func (m *Manager) cwd(req string) (string, string, *abi.Error) {
	if req == "" {
		req = "."
	}
	r, aerr := m.pol.Resolve(req)
	if aerr != nil {
		return "", "", aerr
	}
	if !r.Info.IsDir() {
		if r.Link != "" {
			// The path the model gave, not only where it leads, as
			// list_directory names a link to a file.
			return "", "", abi.Errorf(abi.InvalidArgument, "cwd %q is a link to the file %q, not a folder; give a folder inside a root", r.Name, r.Display)
		}
		return "", "", abi.Errorf(abi.InvalidArgument, "cwd %q is a file, not a folder; give a folder inside a root", r.Display)
	}
	return filepath.Join(r.Root.Real, filepath.FromSlash(r.Rel)), r.Display, nil
}

// sandboxPolicy is what a confined command may write: the roots and the
// caches, with each root's git metadata guarded (sandbox.Policy.AddRoot:
// .git pinned, its hooks, configuration and redirections read-only). It is
// built for each command, from the roots as they are then. A job (lifeline)
// gets juju's lifeline at aliveFD.
func (m *Manager) sandboxPolicy(network, lifeline bool) sandbox.Policy {
	var p sandbox.Policy
	for _, r := range m.pol.Roots() {
		p.AddRoot(r.Real)
	}
	p.Write = append(p.Write, m.caches...)
	p.Pinned = append(p.Pinned, m.guard.pinned...)
	p.ReadOnly = append(p.ReadOnly, m.guard.readOnly...)
	p.Hidden = m.hidden
	p.HiddenFiles = hiddenFiles(m.hiddenFiles, m.hidden)
	p.Network = network
	if lifeline && m.alive != nil {
		p.AliveFD = aliveFD
	}
	return p
}

// hiddenFiles returns the files of files that a sandbox can cover now:
// those that exist, regular files or sockets, not in /tmp or a hidden
// folder (covered already: bubblewrap would find no file there to bind
// onto). It looks for each command, as the file may be made after juju
// starts (an agent started later).
func hiddenFiles(files, hidden []string) []string {
	var out []string
	for _, f := range files {
		if fi, err := os.Lstat(f); err != nil || !fi.Mode().IsRegular() && fi.Mode().Type() != fs.ModeSocket || policy.Within(f, "/tmp") || slices.ContainsFunc(hidden, func(d string) bool { return policy.Within(f, d) }) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// agentSockets are the sockets of the owner's agents that env names or
// places: the ssh agent's (SSH_AUTH_SOCK), and those of gpg-agent, its
// smart card daemon and its network daemon (dirmngr) in gpg's home folder
// (GNUPGHOME, else ~/.gnupg), where gpg puts them on a system without a
// session runtime folder. Through the ssh agent a confined command lists
// the owner's keys, signs with them (a commit, a login challenge: with
// the network, it logs in as the owner) and removes them from the agent;
// through gpg-agent, whose cache holds a key's passphrase once the owner
// used it, it decrypts the owner's files (a password store); through
// dirmngr, which fetches keys for gpg, it has a URL of its choosing
// fetched with the network denied (gpg --keyserver URL --recv-keys) — all
// outside the sandbox. Commands never get SSH_AUTH_SOCK (Scrub), but the
// socket often lies where a command finds it anyway: a well-known place
// (~/.1password/agent.sock, ~/.ssh/agent.sock) or the IdentityAgent of
// the owner's ~/.ssh/config, which the sandbox lets it read. One in /tmp
// (ssh -A, a login's ssh-agent) or the session's runtime folder (gpg's
// own there, gnome-keyring's, systemd's) is covered with its folder
// already. gpg's key box daemon (public keys) is left alone.
func agentSockets(env []string) []string {
	var out []string
	var home, gnupg string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "SSH_AUTH_SOCK":
			if filepath.IsAbs(v) {
				out = append(out, v)
			}
		case "GNUPGHOME":
			gnupg = v
		case "HOME":
			home = v
		}
	}
	if gnupg == "" && home != "" {
		gnupg = filepath.Join(home, ".gnupg")
	}
	if filepath.IsAbs(gnupg) {
		for _, name := range []string{"S.gpg-agent", "S.gpg-agent.ssh", "S.gpg-agent.extra", "S.gpg-agent.browser", "S.scdaemon", "S.dirmngr"} {
			out = append(out, filepath.Join(gnupg, name))
		}
	}
	return out
}

// resolveFiles resolves the absolute paths of files through symbolic
// links once, when juju starts, as the caches are: a link a command
// planted later (in a cache it may write) does not move the cover. A file
// not made yet keeps its folder resolved.
func resolveFiles(files []string) []string {
	var out []string
	for _, f := range files {
		if !filepath.IsAbs(f) {
			continue
		}
		if real, err := filepath.EvalSymlinks(f); err == nil {
			f = real
		} else if dir, err := filepath.EvalSymlinks(filepath.Dir(f)); err == nil {
			f = filepath.Join(dir, filepath.Base(f))
		}
		out = append(out, filepath.Clean(f))
	}
	return out
}

// confine decides whether and how argv runs confined. A job (lifeline) is
// started with juju's lifeline as its first extra file when it runs under
// bubblewrap.
func (m *Manager) confine(argv []string, cwd string, asked, network, lifeline bool) ([]string, string, string, *abi.Error) {
	mode := m.opts.Sandbox
	if !asked && (mode == "" || mode == sandbox.Off) {
		return argv, sandbox.MechNone, "", nil
	}
	var err error = fmt.Errorf("%w: juju was started without one", sandbox.ErrUnavailable)
	if m.opts.Sandboxer != nil {
		var wrapped []string
		var mech string
		wrapped, mech, err = m.opts.Sandboxer.Wrap(m.sandboxPolicy(network, lifeline), cwd, argv)
		if err == nil {
			return wrapped, mech, "", nil
		}
	}
	if asked || mode == sandbox.Require {
		why := "the call asked for sandbox: true"
		if !asked {
			why = "the owner's setting is sandbox = require"
		}
		return nil, "", "", abi.Errorf(abi.SandboxUnavailable, "the command was not run: %s and this machine has no working command sandbox (%v); run `juju doctor` to see why, or ask the owner", why, err)
	}
	return argv, sandbox.MechNone, fmt.Sprintf("ran unconfined: the sandbox setting is prefer and no sandbox works here (%v)", err), nil
}

// callWait is how long a call may wait for a job, asked for d: at most
// what is left of the background-after limit counted from the call's
// arrival (hostfns.Caller.Arrived), since a client gives up on a call
// counted from there, whatever held it. The owner's approval may hold a
// call long: a tenth of the limit from when its tool began is still
// waited, so that a quick command approved late still answers with its
// result. run_commands' waits on its commands, one after the other in
// one call, share the same limit.
func (m *Manager) callWait(ctx context.Context, d time.Duration) time.Duration {
	if c, ok := hostfns.CallerFrom(ctx); ok && !c.Arrived.IsZero() && !c.Began.IsZero() {
		until := c.Arrived.Add(m.opts.BackgroundAfter)
		if floor := c.Began.Add(m.opts.BackgroundAfter / 10); floor.After(until) {
			until = floor
		}
		d = min(d, time.Until(until))
	}
	return capWait(ctx, d)
}

func capWait(ctx context.Context, d time.Duration) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		d = min(d, time.Until(dl)-deadlineMargin)
	}
	return max(d, 0)
}

func maxOutput(n int64) int64 {
	if n <= 0 {
		return DefaultMaxOutput
	}
	return min(n, MaxMaxOutput)
}

func joinNote(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// loopbackNote is said of a confined command asked to run in the
// background with the network denied, while it runs: a dev server there
// listens on a
// loopback of its own, and the model's next command, curl in a sandbox of
// its own, was refused with no word of why.
const loopbackNote = "confined with the network denied, it has a loopback of its own: a server it starts is reachable only from within this command, " +
	"not from another command; to call a dev server from another command, start both with network: true (the machine's own network), or start the server and its client in one command"

// offlineSigns are what a program prints when a connection or an address
// look-up fails for want of a network (lower case): Go's dialer and
// resolver, glibc (pip, python), curl and git, Node (npm, yarn), ssh.
var offlineSigns = []string{
	"network is unreachable",
	"temporary failure in name resolution",
	"could not resolve host",
	"could not resolve hostname",
	"eai_again",
}

// readOnlySign is what a program prints when a write lands where the
// sandbox binds the file system read-only (EROFS).
const readOnlySign = "read-only file system"

// confinementNote tells the model, for a confined command whose output
// shows a failure the sandbox made, what refused and what to do: a failed
// download looked like a network outage, and a failed write to the home
// folder like a broken disk, and models retried or gave up. offline is
// true when the command ran with the network denied. "" when the output
// shows neither.
func confinementNote(offline bool, outs ...string) string {
	var net, ro bool
	for _, o := range outs {
		l := strings.ToLower(o)
		if offline && !net {
			for _, s := range offlineSigns {
				if strings.Contains(l, s) {
					net = true
					break
				}
			}
		}
		ro = ro || strings.Contains(l, readOnlySign)
	}
	var note string
	if net {
		note = "the sandbox denied this command the network (it has only a loopback of its own), so the connections or address look-ups its output shows failing could not succeed here; " +
			"if it needs to download (go mod download, npm install, pip install, git fetch) or reach a server, run it again with network: true"
	}
	if ro {
		note = joinNote(note, "the sandbox let this command write only inside the workspace roots, the package caches that exist (Go's build and module caches, npm's, pip's, cargo's) and /tmp "+
			"(its own, emptied when it ends); the home folder and the rest are read-only, so the writes its output shows refused (read-only file system) cannot succeed here: "+
			"write inside the workspace instead (for a tool's cache, e.g. XDG_CACHE_HOME=.cache or npm_config_cache=.npm-cache), or ask the owner to run it with the sandbox off")
	}
	return note
}

// argvError refuses an argument list no program can receive, naming the
// argument (the command line, for a shell command: argv is bash -c LINE).
func argvError(argv []string, shell bool) *abi.Error {
	var ae *proc.ArgError
	if !errors.As(proc.CheckArgv(argv), &ae) {
		return nil
	}
	what := "the program"
	switch {
	case shell:
		what = "the command line"
	case ae.Index > 0:
		what = fmt.Sprintf("argument %d (%s)", ae.Index, abi.Quote(argv[ae.Index]))
	}
	if errors.Is(ae, proc.ErrArgNUL) {
		return abi.Errorf(abi.InvalidArgument, "%s holds a NUL byte, which no program can receive; remove it", what)
	}
	return abi.Errorf(abi.TooLarge, "%s is %d bytes, and the system gives a program no argument of %d KiB or more; write the text to a file (write_file) and have the command read it", what, len(argv[ae.Index]), proc.MaxArg>>10)
}

// displayArgv joins argv for the model to read, quoting what needs it.
func displayArgv(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`|&;<>()*?[]{}~#!") {
			b.WriteString(a)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	return b.String()
}

// lookPath finds a program the way the child will, as a shell in cwd
// does: a name with a slash is a path relative to cwd, and a name
// without one is looked up on path (a PATH's value), a relative folder
// of it (PATH=./node_modules/.bin:…, or an empty entry for ".") taken
// from cwd. A command is looked up on the PATH it gets, not on juju's
// own, which leaves out the folders inside the roots (cmd/juju's
// trimPath): exec_command did not find a program of the project's that
// run_command ran, nor one of a relative folder, which os/exec took from
// juju's own folder.
func lookPath(name, cwd, path string) (string, error) {
	if strings.Contains(name, "/") {
		if !filepath.IsAbs(name) {
			name = filepath.Join(cwd, name)
		}
		return name, nil
	}
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(cwd, dir)
		}
		// A path with a slash is checked as it is (with PATHEXT on
		// Windows).
		if p, err := osexec.LookPath(filepath.Join(dir, name)); err == nil {
			return p, nil
		}
	}
	return "", &osexec.Error{Name: name, Err: osexec.ErrNotFound}
}

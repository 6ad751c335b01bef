package exec

import (
	"context"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/jujutools/juju/internal/proc"
	"github.com/jujutools/juju/sandbox"
	"github.com/jujutools/juju/sdk/abi"
)

// killGrace is how long a job's processes have between SIGTERM and
// SIGKILL.
const killGrace = time.Second

// killPoll is how often a kill looks whether the processes it sent SIGTERM
// have ended, before killGrace: a few /proc reads each time, and a
// cancel_job that answers at most this much after the last one ended.
const killPoll = 20 * time.Millisecond

// jobVar is the environment variable that marks an unsandboxed job's
// processes, so that an orphan juju was handed (proc.Subreap) is killed
// with its job (proc.Adopted). Its value is the Manager's nonce and the
// job's id.
const jobVar = "JUJU_JOB"

// job is one command and its logs.
type job struct {
	id      string
	owner   string // the principal that started it (hostfns.Caller.Principal)
	command string
	cwd     string // display path
	sandbox string
	bwrap   bool // sandbox is bubblewrap: pgid is bubblewrap's, the command is inside
	offline bool // confined with the network denied (confinementNote)
	note    string
	start   time.Time
	outPath string
	errPath string
	pgid    int
	marker  string // jobVar=…, in an unsandboxed job's environment
	done    chan struct{}
	timer   *time.Timer   // nil when it has no timeout
	timeout time.Duration // the timeoutMs it was given, or the default; 0: none

	mu     sync.Mutex
	state  string
	exit   *int
	signal string
	end    time.Time
	reason string // JobKilled or JobTimeout once a kill was asked
	reaped bool   // its leader was waited for: pgid may be another's now
	bound  bool   // it stops with the call that started it (ExecRequest.Bound) until released
	// killing is closed when the first kill of the job is done; a later
	// one waits for it.
	killing chan struct{}
	flood   int64 // the output cap it passed, when that killed it
	// background: it was asked to run in the background (a dev server, a
	// watcher), not only outlasted its wait (loopbackNote).
	background bool
	logs       int64 // the size of its logs together, once it ended
}

// logWatch is how often a running job's logs are measured against the
// output cap: a command writing at disk speed passes it by at most a
// few hundred megabytes.
const logWatch = 250 * time.Millisecond

// watchLogs kills the job once its logs together pass max bytes.
func (j *job) watchLogs(max int64) {
	t := time.NewTicker(logWatch)
	defer t.Stop()
	for {
		select {
		case <-j.done:
			return
		case <-t.C:
		}
		var size int64
		for _, p := range []string{j.outPath, j.errPath} {
			if fi, err := os.Stat(p); err == nil {
				size += diskSize(fi)
			}
		}
		if size > max {
			j.mu.Lock()
			if j.reason == "" {
				j.flood = max
			}
			j.mu.Unlock()
			j.kill(abi.JobKilled)
			return
		}
	}
}

// start launches argv as a new job.
func (m *Manager) start(owner string, argv []string, display, cwd, cwdDisplay string, timeout time.Duration, askSandbox, network bool) (*job, *abi.Error) {
	prog, err := lookPath(argv[0], cwd, m.path)
	if err != nil {
		return nil, abi.Errorf(abi.NotFound, "the program %s was not found on PATH; check its name, or give its path", abi.Quote(argv[0]))
	}
	wrapped, mech, note, aerr := m.confine(argv, cwd, askSandbox, network, true)
	if aerr != nil {
		return nil, aerr
	}
	path := prog
	if wrapped[0] != argv[0] { // a sandbox's program in front of it
		// juju's own program, on juju's own PATH.
		if path, err = lookPath(wrapped[0], cwd, os.Getenv("PATH")); err != nil {
			return nil, abi.Errorf(abi.NotFound, "the program %s was not found on PATH; check its name, or give its path", abi.Quote(wrapped[0]))
		}
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, abi.Errorf(abi.Internal, "juju is shutting down; no command can start")
	}
	// The bound is each principal's: a client that fills it (background
	// jobs have no timeout) keeps no other principal's commands from
	// starting, whose jobs it could neither list nor cancel.
	running := 0
	for _, j := range m.order {
		if j.owner == owner && j.State() == abi.JobRunning {
			running++
		}
	}
	if running >= MaxRunning {
		return nil, abi.Errorf(abi.TooLarge, "%d of your jobs are already running, the most juju allows a client; wait for some (job_wait) or cancel them (cancel_job; list_jobs shows them), then try again", running)
	}
	if err := m.makeJobsDir(); err != nil {
		return nil, m.internal("creating the jobs folder", err)
	}
	m.seq++
	j := &job{
		id: fmt.Sprintf("job-%d", m.seq), owner: owner, command: display, cwd: cwdDisplay, sandbox: mech, note: note,
		bwrap:   mech == sandbox.MechBubblewrap || mech == sandbox.MechBubblewrapLandlock,
		offline: mech != sandbox.MechNone && !network,
		done:    make(chan struct{}), state: abi.JobRunning,
	}
	env := m.env
	if !j.bwrap {
		j.marker = jobVar + "=" + m.nonce + "-" + j.id
		env = append(env[:len(env):len(env)], j.marker)
	}
	j.outPath = filepath.Join(m.opts.JobsDir, j.id+".out")
	j.errPath = filepath.Join(m.opts.JobsDir, j.id+".err")
	stdout, err := openFile(j.outPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, m.internal("creating a job log", err)
	}
	defer stdout.Close()
	stderr, err := openFile(j.errPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, m.internal("creating a job log", err)
	}
	defer stderr.Close()

	cmd := &osexec.Cmd{
		Path:        path,
		Args:        wrapped,
		Dir:         cwd,
		Env:         env,
		Stdin:       m.devNull, // nil when it could not be opened: os/exec opens it
		Stdout:      stdout,    // *os.File: the child writes the log itself
		Stderr:      stderr,
		SysProcAttr: proc.Attr(), // its own session and process group, killed with juju
	}
	if j.bwrap && m.alive != nil {
		cmd.ExtraFiles = []*os.File{m.alive} // at aliveFD: juju's lifeline
	}
	j.start = time.Now()
	cmd, err = m.startReaped(cmd, j.bwrap, launch{path: prog, argv: argv, cwd: cwd, network: network})
	var notRun *os.PathError
	if err != nil && path == prog && errors.As(err, &notRun) && notRun.Op == "fork/exec" && notRunnable(notRun.Err) {
		// Found and not run (no execute permission, a folder, a missing
		// interpreter): the job exits as it does in the sandbox, where
		// juju's helper execs the program, with a shell's code and
		// message (sandbox.NotRunCode).
		fmt.Fprintf(stderr, "juju: %s: %s\n", argv[0], sandbox.NotRunWhy(path, notRun.Err))
		j.notRun(sandbox.NotRunCode(err))
		m.jobs[j.id] = j
		m.order = append(m.order, j)
		m.prune()
		return j, nil
	}
	if err != nil {
		os.Remove(j.outPath)
		os.Remove(j.errPath)
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) || errors.Is(err, syscall.ENOEXEC) {
			return nil, abi.Errorf(abi.NotFound, "%s could not be started (%v); check the program's path and that it is executable", abi.Quote(argv[0]), err)
		}
		if proc.TooLong(err) {
			return nil, abi.Errorf(abi.TooLarge, "the command's arguments are longer together than the system lets a program receive; pass fewer or shorter ones, or write them to a file (write_file) and have the command read it")
		}
		return nil, m.internal("starting a command", err)
	}
	j.pgid = cmd.Process.Pid
	j.timeout = timeout
	if timeout > 0 {
		j.timer = time.AfterFunc(timeout, func() { j.kill(abi.JobTimeout) })
	}
	go j.watchLogs(m.opts.MaxLog)
	m.jobs[j.id] = j
	m.order = append(m.order, j)
	m.prune()
	go func() {
		j.reap(cmd)
		if m.opts.Ended != nil {
			m.opts.Ended()
		}
		m.mu.Lock()
		m.prune() // its logs may take the kept ones past MaxKept
		m.mu.Unlock()
		// A standby reaper for the next sandboxed command, now that this
		// one no longer needs the processor.
		if reaper := m.reaperFor(j.bwrap); reaper != nil {
			m.mu.Lock()
			m.startStandby(reaper, network)
			m.mu.Unlock()
		}
	}()
	return j, nil
}

// launch is the command a job runs, before any sandbox: its program as
// juju found it on PATH, its arguments, folder and network.
type launch struct {
	path, cwd string
	argv      []string
	network   bool
}

// startReaped starts cmd and returns what it started: a bubblewrap (bwrap)
// under the reaper, as the init of a PID namespace that dies with juju
// (sandbox.ReaperAttr), when there is one and the kernel gives juju the
// namespaces, else cmd as it is. The reaper is the standby one (see
// standby.go) when one is ready or starting, and when that standby's
// sandbox is already built, it runs l in it instead of cmd. m.mu is held.
func (m *Manager) startReaped(cmd *osexec.Cmd, bwrap bool, l launch) (*osexec.Cmd, error) {
	reaper := m.reaperFor(bwrap)
	if reaper == nil {
		return cmd, cmd.Start()
	}
	if s := m.takeStandby(); s != nil {
		reaped, err := s.hand(m, cmd, l)
		if err == nil {
			return reaped, nil
		}
		m.log.Debug("a standby reaper could not take its command; starting another", "err", err)
	}
	reaped := &osexec.Cmd{
		Path: reaper[0], Args: append(append([]string(nil), reaper...), sandbox.ReaperArgs(len(cmd.ExtraFiles), cmd.Path, cmd.Args)...),
		Dir: cmd.Dir, Env: cmd.Env, Stdout: cmd.Stdout, Stderr: cmd.Stderr, ExtraFiles: cmd.ExtraFiles,
		SysProcAttr: sandbox.ReaperAttr(),
	}
	err := reaped.Start()
	if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) {
		m.noReaper.Store(true)
		m.log.Info("sandboxed commands start without the reaper: the kernel gives juju no PID namespace", "err", err)
		return cmd, cmd.Start()
	}
	return reaped, err
}

// reaperFor returns the reaper's argv prefix for a command in bubblewrap
// (bwrap) or not, nil when it runs without one.
func (m *Manager) reaperFor(bwrap bool) []string {
	if bwrap && m.opts.Sandboxer != nil && !m.noReaper.Load() {
		return m.opts.Sandboxer.Reaper()
	}
	return nil
}

// notRunnable reports whether err, an exec's, says the program cannot be
// run as it is (a shell's 126 or 127), not that the system is short of
// something (memory, processes) or the arguments are too long.
func notRunnable(err error) bool {
	for _, e := range []syscall.Errno{syscall.ENOENT, syscall.EACCES, syscall.ENOEXEC, syscall.EISDIR, syscall.ENOTDIR, syscall.ELOOP, syscall.ETXTBSY, syscall.ENAMETOOLONG, syscall.EPERM} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// notRun ends a job whose program could not be run, with code.
func (j *job) notRun(code int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.state, j.exit, j.reaped, j.end = abi.JobExited, &code, true, time.Now()
	for _, p := range []string{j.outPath, j.errPath} {
		if fi, err := os.Stat(p); err == nil {
			j.logs += diskSize(fi)
		}
	}
	close(j.done)
}

// reap waits for the command, kills what is left of its group and the
// orphans it left (proc.Adopted), and records how it ended.
func (j *job) reap(cmd *osexec.Cmd) {
	err := cmd.Wait()
	j.mu.Lock()
	j.reaped = true
	killing := j.killing != nil // it kills the orphans once their grace is over
	j.mu.Unlock()
	proc.KillGroup(j.pgid) // the group's stragglers
	if j.marker != "" && !killing {
		if left := proc.Adopted(j.marker); len(left) > 0 {
			proc.StopTree(left...).Kill()
		}
	}
	if j.timer != nil {
		j.timer.Stop()
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.end = time.Now()
	ps := cmd.ProcessState
	switch {
	case ps == nil:
		j.state = abi.JobKilled
		j.signal = fmt.Sprint(err)
	case j.reason != "":
		j.state = j.reason
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			j.signal = ws.Signal().String()
		}
	default:
		// A signal juju did not send (a crash, the out-of-memory killer,
		// the command's own kill) ends it as a shell reports it, exit
		// 128+n: a sandboxed command's bubblewrap reports nothing else, so
		// a command ends the same whichever way it ran.
		code := ps.ExitCode()
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			j.signal = ws.Signal().String()
			code = 128 + int(ws.Signal())
		}
		j.state = abi.JobExited
		j.exit = &code
	}
	for _, p := range []string{j.outPath, j.errPath} {
		if fi, err := os.Stat(p); err == nil {
			j.logs += diskSize(fi)
		}
	}
	close(j.done)
}

// kill ends the job; reason is the state it ends in. An unsandboxed
// command's whole tree is found and stopped first (proc.StopTree: its
// group, its descendants in sessions of their own, the orphans it left),
// then sent SIGTERM, and after killGrace every process found that still
// runs is killed with what it started meanwhile, whether or not the
// command itself ended: a descendant is not lost by its parent dying
// first. A sandboxed command is signalled inside bubblewrap's sandbox,
// never bubblewrap first (see sandbox.Interrupt); one that has not started
// yet is killed with its sandbox at once. A kill while another is under
// way waits for it.
func (j *job) kill(reason string) {
	j.mu.Lock()
	if j.state != abi.JobRunning {
		j.mu.Unlock()
		return
	}
	if j.reason == "" {
		j.reason = reason
	}
	if j.killing != nil {
		killing := j.killing
		j.mu.Unlock()
		<-killing
		return
	}
	j.killing = make(chan struct{})
	defer close(j.killing)
	j.mu.Unlock()
	if j.bwrap {
		if !sandbox.Interrupt(j.pgid) {
			proc.KillTree(j.pgid)
			return
		}
		select {
		case <-j.done:
		case <-time.After(killGrace):
			proc.KillTree(j.pgid)
		}
		return
	}
	t := proc.StopTree(j.roots()...)
	t.Signal(syscall.SIGTERM)
	t.Continue() // a stopped process handles SIGTERM only once it runs
	grace := time.NewTimer(killGrace)
	defer grace.Stop()
	poll := time.NewTicker(killPoll)
	defer poll.Stop()
	// What still runs after the grace, with what it started meanwhile and
	// the orphans left since, is killed; all of it ended, the orphans
	// left since are.
	defer func() { proc.StopTree(append(j.roots(), t.Running()...)...).Kill() }()
	done := j.done
	for {
		select {
		case <-grace.C:
			return
		case <-poll.C:
		case <-done:
			done = nil
		}
		if done == nil && len(t.Running()) == 0 {
			return
		}
	}
}

// roots are where an unsandboxed job's tree is found: its command, until
// it was waited for, and the orphans it left.
func (j *job) roots() []int {
	var roots []int
	j.mu.Lock()
	if !j.reaped {
		roots = append(roots, j.pgid)
	}
	j.mu.Unlock()
	return append(roots, proc.Adopted(j.marker)...)
}

// await waits up to d for the job to end, or until ctx ends.
func (j *job) await(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-j.done:
	case <-t.C:
	case <-ctx.Done():
	}
}

// State is the job's state now.
func (j *job) State() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.state
}

// result describes the job, with each stream cut to maxOut bytes (0: the
// sizes only).
func (j *job) result(maxOut int64) abi.ExecResult {
	j.mu.Lock()
	r := abi.ExecResult{
		JobID: j.id, Command: j.command, Cwd: j.cwd, State: j.state, ExitCode: j.exit, Signal: j.signal,
		Sandbox: j.sandbox, Note: j.note,
	}
	if j.state == abi.JobTimeout {
		r.Note = joinNote(r.Note, fmt.Sprintf("killed by juju when its timeout (%s) ran out, with every process it started; if it needs longer, run it again with a larger timeoutMs, or with background: true and no timeoutMs to let it run until it ends, following it with job_output", j.timeout))
	}
	if j.state == abi.JobRunning && j.timeout == 0 {
		r.Note = joinNote(r.Note, "no timeout: it runs until it ends, cancel_job stops it, or juju exits")
	}
	if j.flood > 0 {
		flood := fmt.Sprintf("killed by juju: its output passed %d MiB, the most juju keeps of one command; write it to a file, or filter it (| tail, | grep)", j.flood>>20)
		if r.Note != "" {
			flood = r.Note + "; " + flood
		}
		r.Note = flood
	}
	end, background := j.end, j.background
	j.mu.Unlock()
	if end.IsZero() {
		end = time.Now()
	}
	r.DurationMs = end.Sub(j.start).Milliseconds()
	running := r.State == abi.JobRunning
	r.Stdout, r.StdoutBytes, r.StdoutCut = headTail(j.outPath, maxOut, j.id, "stdout", running)
	r.Stderr, r.StderrBytes, r.StderrCut = headTail(j.errPath, maxOut, j.id, "stderr", running)
	r.Cut = r.StdoutCut != nil || r.StderrCut != nil
	if r.Sandbox != sandbox.MechNone {
		r.Note = joinNote(r.Note, confinementNote(j.offline, r.Stdout, r.Stderr))
	}
	if j.offline && background && r.State == abi.JobRunning {
		r.Note = joinNote(r.Note, loopbackNote)
	}
	return r
}

// ended reports whether j ended, and when, with the size of its logs.
func (j *job) ended() (time.Time, int64, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.end, j.logs, j.state != abi.JobRunning
}

// prune drops finished jobs with their logs, the first to end first,
// beyond MaxJobs, and while the finished jobs' logs together pass MaxKept,
// all but the last to end (whose output a caller may be about to read).
// Each principal's jobs are counted apart: a client that runs many
// commands, or loud ones, drops only its own, never the result another
// client, which cannot see its jobs, has yet to read. m.mu is held.
func (m *Manager) prune() {
	var owners []string
	for _, j := range m.order {
		if !slices.Contains(owners, j.owner) {
			owners = append(owners, j.owner)
		}
	}
	for _, o := range owners {
		m.pruneOwner(o)
	}
}

// pruneOwner is prune for the jobs of one principal.
func (m *Manager) pruneOwner(owner string) {
	for {
		first, finished := -1, 0
		var firstEnd time.Time
		var kept int64
		for k, j := range m.order {
			if j.owner != owner {
				continue
			}
			if end, n, ok := j.ended(); ok {
				if first < 0 || end.Before(firstEnd) {
					first, firstEnd = k, end
				}
				finished++
				kept += n
			}
		}
		if first < 0 || finished <= m.opts.MaxJobs && (kept <= m.opts.MaxKept || finished < 2) {
			return
		}
		i := first
		j := m.order[i]
		m.order = append(m.order[:i], m.order[i+1:]...)
		delete(m.jobs, j.id)
		os.Remove(j.outPath)
		os.Remove(j.errPath)
	}
}

// Owners returns the principals that have a job running, each once.
func (m *Manager) Owners() []string {
	m.mu.Lock()
	jobs := append([]*job(nil), m.order...)
	m.mu.Unlock()
	var owners []string
	for _, j := range jobs {
		if j.State() == abi.JobRunning && !slices.Contains(owners, j.owner) {
			owners = append(owners, j.owner)
		}
	}
	return owners
}

// KillOwner kills the running jobs of owner, as cancel_job would, without
// waiting for them to end, and returns how many it kills: a principal that
// may no longer call (an OAuth client revoked) leaves nothing running that
// nobody else could see or cancel.
func (m *Manager) KillOwner(owner string) int {
	m.mu.Lock()
	jobs := append([]*job(nil), m.order...)
	m.mu.Unlock()
	n := 0
	for _, j := range jobs {
		if j.owner == owner && j.State() == abi.JobRunning {
			n++
			go j.kill(abi.JobKilled)
		}
	}
	return n
}

// Close kills every running job's process tree (a sandboxed one with its
// sandbox), waits for them (up to ctx), and removes the jobs folder.
func (m *Manager) Close(ctx context.Context) error {
	m.mu.Lock()
	m.closed = true
	jobs := append([]*job(nil), m.order...)
	m.mu.Unlock()
	for _, j := range jobs {
		if j.State() == abi.JobRunning {
			j.mu.Lock()
			if j.reason == "" {
				j.reason = abi.JobKilled
			}
			j.mu.Unlock()
			if j.bwrap {
				proc.KillTree(j.pgid)
			} else {
				proc.StopTree(j.roots()...).Kill()
			}
		}
	}
	m.mu.Lock()
	if m.standbyIdle != nil {
		m.standbyIdle.Stop()
	}
	if m.standbyPending {
		if s := <-m.standbyCh; s != nil {
			s.discard()
		}
		m.standbyPending = false
	}
	if m.devNull != nil { // no command starts once closed is set
		m.devNull.Close()
		m.devNull = nil
	}
	m.mu.Unlock()
	for _, j := range jobs {
		select {
		case <-j.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if m.aliveW != nil {
		m.alive.Close()
		m.aliveW.Close() // a sandbox still setting up now runs nothing
	}
	if m.opts.JobsDir != "" {
		err := os.RemoveAll(m.opts.JobsDir)
		if m.unlockDir != nil {
			m.unlockDir()
		}
		return err
	}
	return nil
}

func (m *Manager) internal(what string, err error) *abi.Error {
	m.log.Error("exec host function failed", "op", what, "err", err)
	return abi.Errorf(abi.Internal, "juju hit an unexpected error %s; try again, and tell the owner if it persists", what)
}

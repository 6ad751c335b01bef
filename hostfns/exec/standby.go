package exec

import (
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/jujutools/juju/sandbox"
)

// A standby is a reaper started ahead of the sandboxed command it will
// serve (sandbox.StandbyArgs): its program's start, its namespaces and
// its /proc are done before the command comes, and the command waits only
// for the order to cross its socket. It is started with the reaper's
// attributes (sandbox.ReaperAttr), so it dies with juju like any reaper,
// busy or idle. juju keeps at most one, started when a sandboxed command
// that used a reaper ends: then it does not take the processor from that
// command, and it is ready long before the next one in a session, where
// calls come seconds apart.
//
// When it can, the standby goes further and builds the sandbox itself
// (warm): the reaper runs bubblewrap at once, and juju's helper, inside,
// waits on the socket for the command (sandbox.Sandbox.WrapAwaiting). The
// command then waits for nothing but the helper's checks and its exec.
// The sandbox was built from the file system as it was before the
// command came, so juju hands a command to it only when the sandbox it
// would build now is the same (see handWarm); else it discards it.
type standby struct {
	cmd  *osexec.Cmd
	sock *os.File     // juju's end of the order socket
	warm *warmSandbox // nil: a reaper waiting for bubblewrap's command line
}

// warmSandbox is what a sandbox built ahead of its command was built
// from.
type warmSandbox struct {
	argv    []string // bubblewrap's command line
	network bool
	sources []source // each bind's source, just before bubblewrap started
}

// awaitFD is the descriptor the helper of a warm sandbox waits for its
// command on: the second kept one, after juju's lifeline (aliveFD).
const awaitFD = aliveFD + 1

// errStale: the sandbox a warm standby built is not the one the command
// needs now.
var errStale = errors.New("the sandbox built ahead is not the one this command needs")

// errNotFiles: a standby hands the command its logs as descriptors, so
// they must be files.
var errNotFiles = errors.New("a standby reaper needs the command's output to go to files")

// DefaultStandbyIdle is how long a standby waits for its command before
// it is let go (Options.StandbyIdle): it holds four processes and about
// 9 MB, and a session quiet for longer starts its next sandboxed command
// as it would without one, then keeps a standby again.
const DefaultStandbyIdle = 2 * time.Minute

// standbyWait bounds how long a command waits for a standby that is
// still starting before it starts a reaper of its own: about what that
// start takes, so waiting is never much worse.
const standbyWait = 250 * time.Millisecond

// takeStandby returns the standby reaper, waiting for it when it is still
// starting, and leaves none; nil when there is none. m.mu is held.
func (m *Manager) takeStandby() *standby {
	if !m.standbyPending {
		return nil
	}
	t := time.NewTimer(standbyWait)
	defer t.Stop()
	select {
	case s := <-m.standbyCh:
		m.standbyPending = false
		if m.standbyIdle != nil {
			m.standbyIdle.Stop()
		}
		return s
	case <-t.C:
		return nil // it will be there for the next command
	}
}

// startStandby starts a standby reaper with the program reaper, unless
// one is ready or starting, or juju is closing; its sandbox, when it
// builds one, lets the network in or not as network says (the last
// command's choice is the best guess of the next one's). It returns at
// once; the start runs on its own goroutine and hands the standby (or
// nil) over m.standbyCh. m.mu is held.
func (m *Manager) startStandby(reaper []string, network bool) {
	if m.standbyPending || m.closed || m.noReaper.Load() {
		return
	}
	m.standbyPending = true
	m.standbyGen++
	if idle := m.opts.StandbyIdle; idle > 0 {
		if m.standbyIdle != nil {
			m.standbyIdle.Stop()
		}
		gen := m.standbyGen
		m.standbyIdle = time.AfterFunc(idle, func() { m.letGoStandby(gen) })
	}
	go func() {
		s := m.newWarm(reaper, network)
		if s == nil {
			s = m.newStandby(reaper)
		}
		m.standbyCh <- s
	}()
}

// letGoStandby ends standby number gen if no command took it.
func (m *Manager) letGoStandby(gen int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || !m.standbyPending || m.standbyGen != gen {
		return
	}
	if s := <-m.standbyCh; s != nil { // a start in progress ends soon
		s.discard()
	}
	m.standbyPending = false
	m.log.Debug("an idle standby reaper let go", "after", m.opts.StandbyIdle)
}

// newWarm starts a standby reaper that builds its sandbox at once, or
// returns nil when it cannot: no lifeline, or a sandbox other than
// bubblewrap through juju's helper.
func (m *Manager) newWarm(reaper []string, network bool) *standby {
	if m.alive == nil || m.opts.Sandboxer == nil {
		return nil
	}
	argv, err := m.opts.Sandboxer.WrapAwaiting(m.sandboxPolicy(network, true), awaitFD)
	if err != nil {
		return nil
	}
	sources := bindSources(argv)
	s := m.spawnStandby(append(append([]string(nil), reaper...), sandbox.ReaperArgs(2, argv[0], argv)...), m.alive)
	if s != nil {
		s.warm = &warmSandbox{argv: argv, network: network, sources: sources}
	}
	return s
}

// newStandby starts a standby reaper, or returns nil: the kernel may
// refuse the namespaces (then the next command finds that out as before
// and starts without the reaper), or the system may be out of processes.
func (m *Manager) newStandby(reaper []string) *standby {
	return m.spawnStandby(append(append([]string(nil), reaper...), sandbox.StandbyArgs()...))
}

// spawnStandby starts the reaper command line argv with the reaper's
// attributes, the descriptors kept (if any) from 3 on and the far end of
// a new order socket after them, or returns nil.
func (m *Manager) spawnStandby(argv []string, kept ...*os.File) *standby {
	mine, theirs, err := sandbox.OrderSocket()
	if err != nil {
		m.log.Warn("no standby reaper", "err", err)
		return nil
	}
	cmd := &osexec.Cmd{
		Path: argv[0], Args: argv,
		Dir: "/", Env: m.env, ExtraFiles: append(kept, theirs),
		SysProcAttr: sandbox.ReaperAttr(),
	}
	err = cmd.Start()
	theirs.Close()
	if err != nil {
		mine.Close()
		m.log.Debug("no standby reaper", "err", err)
		return nil
	}
	return &standby{cmd: cmd, sock: mine}
}

// hand gives the standby the command cmd describes (the command l in its
// sandbox, when the standby is warm) and returns the standby's Cmd, which
// then stands for the command: its pid leads the job's session, its exit
// status is the command's. On failure the standby is discarded.
func (s *standby) hand(m *Manager, cmd *osexec.Cmd, l launch) (*osexec.Cmd, error) {
	stdout, _ := cmd.Stdout.(*os.File)
	stderr, _ := cmd.Stderr.(*os.File)
	if stdout == nil || stderr == nil {
		s.discard()
		return nil, errNotFiles
	}
	if s.warm != nil {
		return s.handWarm(m, l, stdout, stderr)
	}
	err := sandbox.HandOrder(s.sock, cmd.Path, cmd.Args, cmd.Env, cmd.Dir, stdout, stderr, cmd.ExtraFiles)
	s.sock.Close()
	if err != nil {
		s.discard()
		return nil, err
	}
	return s.cmd, nil
}

// handWarm hands l to a warm standby, once its helper has said it waits,
// if the sandbox it built is the one juju would build for l now: the same
// policy and bubblewrap command line (so the same pins and read-only
// paths, network and Landlock rules), and every bind's source the same
// file it was before bubblewrap started (a .git
// or a git control file that appeared, went or was replaced since then
// would be bound differently now). The environment is the Manager's, the
// same for every command and standby. Anything else discards the standby and
// returns an error, and the command starts as it would without one. The
// helper then checks the sandbox's pins and read-only paths itself, after
// the order: what changes between this check and the command's start is
// what could change between bubblewrap's start and the command's without
// a standby.
func (s *standby) handWarm(m *Manager, l launch, stdout, stderr *os.File) (*osexec.Cmd, error) {
	w := s.warm
	if l.network != w.network {
		s.discard()
		return nil, errStale
	}
	if err := awaitReady(s.sock, standbyWait); err != nil {
		s.discard()
		return nil, err
	}
	argv, err := m.opts.Sandboxer.WrapAwaiting(m.sandboxPolicy(l.network, true), awaitFD)
	if err != nil || !slices.Equal(argv, w.argv) || !slices.Equal(bindSources(argv), w.sources) {
		s.discard()
		return nil, errStale
	}
	path := l.path // the helper looks the program up again, as bubblewrap's would
	if !filepath.IsAbs(path) {
		path = filepath.Join(l.cwd, path)
	}
	err = sandbox.HandOrder(s.sock, path, l.argv, nil, l.cwd, stdout, stderr, nil)
	s.sock.Close()
	if err != nil {
		s.discard()
		return nil, err
	}
	m.warmUsed.Add(1)
	return s.cmd, nil
}

// discard ends a standby that will serve no command: closing its socket
// makes it exit, and the kill makes sure of it.
func (s *standby) discard() {
	s.sock.Close()
	s.cmd.Process.Kill()
	go s.cmd.Wait()
}

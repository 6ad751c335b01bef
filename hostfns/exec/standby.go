package exec

import (
	"errors"
	"os"
	osexec "os/exec"
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
type standby struct {
	cmd  *osexec.Cmd
	sock *os.File // juju's end of the order socket
}

// errNotFiles: a standby hands the command its logs as descriptors, so
// they must be files.
var errNotFiles = errors.New("a standby reaper needs the command's output to go to files")

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
		return s
	case <-t.C:
		return nil // it will be there for the next command
	}
}

// startStandby starts a standby reaper with the program reaper, unless
// one is ready or starting, or juju is closing. It returns at once; the
// start runs on its own goroutine and hands the standby (or nil) over
// m.standbyCh. m.mu is held.
func (m *Manager) startStandby(reaper []string) {
	if m.standbyPending || m.closed || m.noReaper.Load() {
		return
	}
	m.standbyPending = true
	go func() { m.standbyCh <- m.newStandby(reaper) }()
}

// newStandby starts a standby reaper, or returns nil: the kernel may
// refuse the namespaces (then the next command finds that out as before
// and starts without the reaper), or the system may be out of processes.
func (m *Manager) newStandby(reaper []string) *standby {
	mine, theirs, err := sandbox.OrderSocket()
	if err != nil {
		m.log.Warn("no standby reaper", "err", err)
		return nil
	}
	cmd := &osexec.Cmd{
		Path: reaper[0], Args: append(append([]string(nil), reaper...), sandbox.StandbyArgs()...),
		Dir: "/", Env: m.env, ExtraFiles: []*os.File{theirs},
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

// hand gives the standby the command cmd describes and returns the
// standby's Cmd, which then stands for the command: its pid leads the
// job's session, its exit status is the command's. On failure the standby
// is discarded.
func (s *standby) hand(cmd *osexec.Cmd) (*osexec.Cmd, error) {
	stdout, _ := cmd.Stdout.(*os.File)
	stderr, _ := cmd.Stderr.(*os.File)
	if stdout == nil || stderr == nil {
		s.discard()
		return nil, errNotFiles
	}
	err := sandbox.HandOrder(s.sock, cmd.Path, cmd.Args, cmd.Env, cmd.Dir, stdout, stderr, cmd.ExtraFiles)
	s.sock.Close()
	if err != nil {
		s.discard()
		return nil, err
	}
	return s.cmd, nil
}

// discard ends a standby that will serve no command: closing its socket
// makes it exit, and the kill makes sure of it.
func (s *standby) discard() {
	s.sock.Close()
	s.cmd.Process.Kill()
	go s.cmd.Wait()
}

//go:build linux

package test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"golang.org/x/sys/unix"
)

// TestClaimBCommandsReachNoTerminal holds juju to SECURITY.md, "Commands
// and the sandbox": every command runs in a new session, with no
// controlling terminal. juju is often started from a terminal (`juju
// serve` in a shell, an MCP client in one): a command that kept that
// terminal could write on the owner's screen through /dev/tty, or push
// keystrokes into the owner's shell (TIOCSTI). juju runs here with a
// pseudo-terminal as its controlling terminal, and a command, a background
// job and a git hook each try to write to /dev/tty: none reaches it.
func TestClaimBCommandsReachNoTerminal(t *testing.T) {
	master, slave := openPTY(t)
	root := gitRepo(t)
	hook := filepath.Join(root, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nprintf HOOK-ON-TTY > /dev/tty && echo hook-reached-tty >&2\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, pid := startWithTerminal(t, root, slave, "--mode", "trusted", "--sandbox", "off")
	if tty := controllingTTY(t, pid); tty == 0 {
		t.Fatalf("juju (pid %d) has no controlling terminal: the test proves nothing", pid)
	}

	out := s.ok("run_command", map[string]any{"command": "printf CMD-ON-TTY > /dev/tty && echo cmd-reached-$((6*7))"})
	if !strings.Contains(out, "/dev/tty") || strings.Contains(out, "cmd-reached-42") {
		t.Errorf("a command opened juju's terminal:\n%s", out)
	}
	bg := structured(t, s.call("run_command", map[string]any{"command": "printf BG-ON-TTY > /dev/tty && echo bg-reached-$((6*7))", "background": true}))
	waited := s.ok("job_wait", map[string]any{"jobId": bg["jobId"], "waitMs": 30000})
	if !strings.Contains(waited, "/dev/tty") || strings.Contains(waited, "bg-reached-42") {
		t.Errorf("a background command opened juju's terminal:\n%s", waited)
	}
	commit := s.ok("git_commit", map[string]any{"message": "m", "paths": []any{"notes.txt"}})
	if strings.Contains(commit, "hook-reached-tty") {
		t.Errorf("a git hook opened juju's terminal:\n%s", commit)
	}

	got := drainPTY(t, master)
	for _, mark := range []string{"CMD-ON-TTY", "BG-ON-TTY", "HOOK-ON-TTY"} {
		if bytes.Contains(got, []byte(mark)) {
			t.Errorf("%s reached the owner's terminal: %q", mark, got)
		}
	}
}

// openPTY opens a pseudo-terminal: its master, and its slave to be the
// controlling terminal of a child.
func openPTY(t *testing.T) (*os.File, *os.File) {
	t.Helper()
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	master := os.NewFile(uintptr(fd), "ptmx")
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { slave.Close() })
	return master, slave
}

// startWithTerminal starts `juju stdio` in a session of its own whose
// controlling terminal is tty, and initializes a client; it returns the
// session and juju's pid.
func startWithTerminal(t *testing.T, root string, tty *os.File, args ...string) (*session, int) {
	t.Helper()
	home := t.TempDir()
	if err := os.Symlink(sharedCache, filepath.Join(home, "cache")); err != nil {
		t.Fatal(err)
	}
	var cmd *exec.Cmd
	spawn := func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
		cmd = exec.CommandContext(ctx, command, args...)
		cmd.Env = env
		cmd.ExtraFiles = []*os.File{tty} // descriptor 3
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 3}
		return cmd, nil
	}
	env := append(os.Environ(), "JUJU_HOME="+home)
	c, err := client.NewStdioMCPClientWithOptions(jujuBin, env, append([]string{"stdio", "--root", root}, args...), transport.WithCommandFunc(spawn))
	if err != nil {
		t.Fatalf("starting juju: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	s := &session{t: t, c: c, root: root, home: home, stderr: func() string { return "" }}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "juju-e2e", Version: "1"}
	if s.init, err = c.Initialize(ctx, req); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return s, cmd.Process.Pid
}

// controllingTTY is the tty_nr of process pid (0: none).
func controllingTTY(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	// pid (comm) state ppid pgrp session tty_nr …; comm may hold spaces.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	n, err := strconv.Atoi(f[4])
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// drainPTY returns what the terminal's master can read now.
func drainPTY(t *testing.T, master *os.File) []byte {
	t.Helper()
	if err := unix.SetNonblock(int(master.Fd()), true); err != nil {
		t.Fatal(err)
	}
	var got []byte
	buf := make([]byte, 4096)
	for {
		n, err := unix.Read(int(master.Fd()), buf)
		if n > 0 {
			got = append(got, buf[:n]...)
			continue
		}
		if err != nil || n == 0 {
			return got
		}
	}
}

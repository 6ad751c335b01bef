package test

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/jujutools/juju/sandbox"
)

// A sandboxed command runs as the owner's user, so only its namespaces keep
// it from the owner's other processes: without its own PID namespace it
// could signal or ptrace juju and every program of the owner's (kill -9 -1),
// without its own IPC namespace write the owner's SysV shared memory (a
// desktop's MIT-SHM, a database's buffers), without its own /dev the
// owner's POSIX shared memory (/dev/shm, where Landlock allows writes), and without its own network
// namespace reach the abstract Unix sockets of the machine (an X server's
// @/tmp/.X11-unix/X0 takes keystrokes, a D-Bus bus runs programs), which
// are no file and no write to refuse. Each is checked from inside a real
// sandbox, against the same command run unconfined, which must reach them
// all: the checks can fail.
func TestSandboxReachesNoProcessSharedMemoryOrAbstractSocketOutside(t *testing.T) {
	needSandbox(t)
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 connects to the abstract socket")
	}
	s := start(t, workspace(t, nil), "--mode", "trusted", "--sandbox", "off")
	pid := jujuPid(t, s)

	shm, err := unix.SysvShmGet(unix.IPC_PRIVATE, 4096, unix.IPC_CREAT|0o600)
	if err != nil {
		t.Skipf("SysV shared memory: %v", err)
	}
	t.Cleanup(func() { unix.SysvShmCtl(shm, unix.IPC_RMID, nil) })

	// POSIX shared memory is a file in /dev/shm, where Landlock lets the
	// command write (/dev); only bubblewrap's own /dev keeps it out.
	posix := fmt.Sprintf("/dev/shm/juju-e2e-%d", os.Getpid())
	if err := os.WriteFile(posix, []byte("owner\n"), 0o600); err != nil {
		t.Skipf("POSIX shared memory: %v", err)
	}
	t.Cleanup(func() { os.Remove(posix) })

	name := fmt.Sprintf("juju-e2e-abstract-%d", os.Getpid())
	ln, err := net.Listen("unix", "@"+name)
	if err != nil {
		t.Skipf("abstract socket: %v", err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()

	script := fmt.Sprintf(`tr '\0' ' ' < /proc/%d/cmdline 2>/dev/null | grep -q stdio && echo sees-juju
kill -0 %d 2>/dev/null && echo signals-juju
kill -0 %d 2>/dev/null && echo signals-the-owners-programs
awk -v id=%d 'NR > 1 && $2 == id { print "sees-shared-memory" }' /proc/sysvipc/shm
grep -q owner %s 2>/dev/null && echo sees-posix-shared-memory && echo command >> %s
%s -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect(b"\0%s"); print("reaches-abstract-socket")' 2>/dev/null
echo done`, pid, pid, os.Getpid(), shm, posix, posix, python, name)
	all := []string{"sees-juju", "signals-juju", "signals-the-owners-programs", "sees-shared-memory", "sees-posix-shared-memory", "reaches-abstract-socket"}
	run := func(args map[string]any) string {
		args["command"] = script
		m := structured(t, s.call("run_command", args))
		out, _ := m["stdout"].(string)
		if !strings.Contains(out, "done") {
			t.Fatalf("%v: %v", args, m)
		}
		return out
	}

	if out := run(map[string]any{}); func() bool {
		for _, w := range all {
			if !strings.Contains(out, w) {
				return true
			}
		}
		return false
	}() {
		t.Fatalf("unconfined, the command should reach all of %v:\n%s", all, out)
	}
	os.WriteFile(posix, []byte("owner\n"), 0o600)
	out := run(map[string]any{"sandbox": true})
	for _, w := range all {
		if strings.Contains(out, w) {
			t.Errorf("sandboxed: %s", w)
		}
	}
	if b, _ := os.ReadFile(posix); string(b) != "owner\n" {
		t.Errorf("a sandboxed command wrote the owner's POSIX shared memory: %q", b)
	}

	// With the network allowed the command shares the machine's network
	// namespace, abstract sockets included; where Landlock scopes them
	// (ABI 6, Linux 6.12) the helper's ruleset still keeps them out.
	out = run(map[string]any{"sandbox": true, "network": true})
	for _, w := range all[:5] {
		if strings.Contains(out, w) {
			t.Errorf("sandboxed with the network: %s", w)
		}
	}
	abi, _ := sandbox.LandlockABI()
	if abi >= 6 && strings.Contains(out, all[5]) {
		t.Errorf("sandboxed with the network under Landlock ABI %d: %s", abi, all[5])
	}
	t.Logf("Landlock ABI %s, with the network:\n%s", strconv.Itoa(abi), out)
}

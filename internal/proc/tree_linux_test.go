package proc

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// KillTree reaches a descendant that left the group for a session of its
// own, which a group kill misses.
func TestKillTreeReachesANewSession(t *testing.T) {
	if _, err := os.Stat("/usr/bin/setsid"); err != nil {
		t.Skip("no setsid")
	}
	cmd := Command(context.Background(), t.TempDir(), nil, "/bin/sh", "-c", `/usr/bin/setsid /bin/sleep 1000 & echo $!; wait`)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the child did not start: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(line))
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if session(pid) == pid {
			break // it runs setsid's sleep, in its own session
		}
		if time.Now().After(deadline) {
			t.Fatal("the child did not take a session of its own")
		}
	}
	KillTree(cmd.Process.Pid)
	cmd.Wait()
	for deadline := time.Now().Add(5 * time.Second); syscall.Kill(pid, 0) == nil && !zombie(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%d, in a session of its own, outlived KillTree", pid)
		}
	}
}

// session reads a process's session from /proc/PID/stat.
func session(pid int) int {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 4 {
		return 0
	}
	n, _ := strconv.Atoi(f[3])
	return n
}

func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return err != nil || i > 0 && i+2 < len(s) && s[i+2] == 'Z'
}

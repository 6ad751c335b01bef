package test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	jproc "github.com/jujutools/juju/internal/proc"
)

// A sandboxed command that ends leaves a reaper started for the next one
// (juju-sandbox --reap --standby, a child of juju): the next sandboxed
// command runs under that very process. An idle standby goes when juju
// ends, and when juju is killed outright; so does a busy one with its
// sandbox.
func TestStandbyReaper(t *testing.T) {
	needSandbox(t)
	if os.Geteuid() != 0 {
		t.Skip("the reaper's namespaces need CAP_SYS_ADMIN; without it juju starts bubblewrap directly (SECURITY.md)")
	}
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	home := t.TempDir()
	os.Symlink(sharedCache, filepath.Join(home, "cache"))
	marker := fmt.Sprintf("%d.%04d", 9000+os.Getpid()%1000, 1)

	// 1. The next command runs under the standby; killed, juju takes it along.
	s := startStandbySession(t, home, root)
	s.call(`"command":"true","sandbox":true`)
	standby := s.waitStandby()
	s.call(fmt.Sprintf(`"command":"sleep %s","background":true,"sandbox":true`, marker))
	sleep := waitProcess(t, func(args []string) bool { return len(args) == 2 && args[0] == "sleep" && args[1] == marker })
	if !descends(sleep, standby) {
		t.Fatalf("the sleep (pid %d) does not run under the standby reaper (pid %d), whose children are %v", sleep, standby, jproc.Children(standby))
	}
	if args := cmdline(standby); !strings.Contains(strings.Join(args, " "), "--standby") {
		t.Fatalf("pid %d is %q", standby, args)
	}
	s.cmd.Process.Signal(syscall.SIGKILL)
	s.cmd.Wait()
	if left := leftovers(root, marker); len(left) > 0 || alive(standby) {
		t.Fatalf("alive after juju was killed: %v; the standby: %v", left, alive(standby))
	}

	// 2. An idle standby goes with a juju killed outright...
	s = startStandbySession(t, home, root)
	s.call(`"command":"true","sandbox":true`)
	standby = s.waitStandby()
	s.cmd.Process.Signal(syscall.SIGKILL)
	s.cmd.Wait()
	if gone(standby) != nil {
		t.Fatalf("the idle standby reaper %d outlived a killed juju", standby)
	}

	// 3. ...and with a juju that ends as asked.
	s = startStandbySession(t, home, root)
	s.call(`"command":"true","sandbox":true`)
	standby = s.waitStandby()
	s.in.Close()
	s.cmd.Wait()
	if gone(standby) != nil {
		t.Fatalf("the idle standby reaper %d outlived juju's shutdown", standby)
	}
}

// standbySession is `juju stdio --mode trusted` driven with raw JSON-RPC lines.
type standbySession struct {
	t   *testing.T
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
	id  int
}

func startStandbySession(t *testing.T, home, root string) *standbySession {
	t.Helper()
	cmd, in, out, err := startTrusted(home, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	s := &standbySession{t: t, cmd: cmd, in: in, out: bufio.NewScanner(out), id: 1}
	s.out.Buffer(make([]byte, 1<<20), 16<<20)
	io.WriteString(in, initializeLine+"\n")
	if !s.out.Scan() {
		t.Fatalf("juju closed stdout: %v", s.out.Err())
	}
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return s
}

// call runs run_command with the arguments args (an object's inside) and
// fails the test unless it answered without error, in a sandbox.
func (s *standbySession) call(args string) {
	s.t.Helper()
	s.id++
	fmt.Fprintf(s.in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_command","arguments":{%s}}}`+"\n", s.id, args)
	if !s.out.Scan() {
		s.t.Fatalf("juju closed stdout: %v", s.out.Err())
	}
	var m struct {
		Result struct {
			IsError    bool           `json:"isError"`
			Structured map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(s.out.Bytes(), &m); err != nil || m.Result.IsError || m.Result.Structured["sandbox"] == "none" || m.Result.Structured["sandbox"] == nil {
		s.t.Fatalf("run_command {%s}: %s", args, s.out.Text())
	}
}

// waitStandby returns the pid of juju's standby reaper, once it runs.
func (s *standbySession) waitStandby() int {
	s.t.Helper()
	helper := filepath.Join(filepath.Dir(jujuBin), "juju-sandbox")
	return waitProcess(s.t, func(args []string) bool {
		return len(args) == 3 && args[0] == helper && args[1] == "--reap" && args[2] == "--standby"
	}, s.cmd.Process.Pid)
}

// waitProcess returns the pid of a live process whose command line
// matches, a child of parent[0] when given, waiting up to 10 s for one.
func waitProcess(t *testing.T, match func([]string) bool, parent ...int) int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var pids []int
		if len(parent) > 0 {
			pids = jproc.Children(parent[0])
		} else {
			dirs, _ := os.ReadDir("/proc")
			for _, d := range dirs {
				pids = append(pids, atoi(d.Name()))
			}
		}
		for _, pid := range pids {
			if pid != 0 && match(cmdline(pid)) && alive(pid) {
				return pid
			}
		}
	}
	t.Fatal("no such process within 10 s")
	return 0
}

func cmdline(pid int) []string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
}

// descends reports whether pid is below from, at most six levels down.
func descends(pid, from int) bool {
	level := []int{from}
	for range 6 {
		var next []int
		for _, p := range level {
			next = append(next, jproc.Children(p)...)
		}
		if slices.Contains(next, pid) {
			return true
		}
		level = next
	}
	return false
}

// gone waits up to 2 s for pid to end; nil once it has.
func gone(pid int) error {
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !alive(pid) {
			return nil
		}
	}
	return fmt.Errorf("pid %d still alive", pid)
}

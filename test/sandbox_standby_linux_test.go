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
	root, home := standbyWorkspace(t, map[string]string{"a.txt": "a\n"}, "")
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
	if args := strings.Join(cmdline(standby), " "); !strings.Contains(args, "--standby") && !strings.Contains(args, " --await ") {
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

// A standby that no command takes within exec.standbyIdleMs is let go,
// with its sandbox; the next sandboxed command starts as it would without
// one, and leaves a standby again.
func TestIdleStandbyIsLetGo(t *testing.T) {
	root, home := standbyWorkspace(t, map[string]string{"a.txt": "a\n"}, "[exec]\nstandbyIdleMs = 400\n")
	s := startStandbySession(t, home, root)
	s.call(`"command":"true","sandbox":true`)
	standby := s.waitStandby()
	waitBuilt(t, standby)
	built := jproc.Children(standby)
	if err := gone(standby); err != nil {
		t.Fatalf("the idle standby: %v", err)
	}
	for _, p := range built {
		if err := gone(p); err != nil {
			t.Fatalf("the idle standby's sandbox: %v", err)
		}
	}
	m := s.call(`"command":"cat a.txt","sandbox":true`)
	if out, _ := m["stdout"].(string); out != "a\n" {
		t.Fatalf("the command after the standby was let go: %v", m)
	}
	if next := s.waitStandby(); next == standby {
		t.Fatalf("no new standby after the command")
	}
}

// A standby that built its sandbox (warm: juju's helper waits inside for
// the command) runs the next command there, in the command's folder; it
// is not handed a command whose sandbox would be another: one made after
// a .git appeared in a root (pinned, its hooks and configuration
// read-only), or one with the network allowed where it was denied, or
// the other way round.
func TestWarmSandboxFollowsTheWorkspace(t *testing.T) {
	root, home := standbyWorkspace(t, map[string]string{"sub/a.txt": "a\n"}, "")
	s := startStandbySession(t, home, root)

	// 1. The next command runs in the sandbox built ahead, in its folder.
	s.call(`"command":"true","sandbox":true`)
	standby := s.waitStandby()
	if !slices.Contains(cmdline(standby), "--await") {
		t.Fatalf("the standby did not build its sandbox: %q", cmdline(standby))
	}
	marker := fmt.Sprintf("0.3%04d", os.Getpid()%10000)
	m := s.call(fmt.Sprintf(`"command":"pwd; echo $TMPDIR; sleep %s","cwd":"sub","sandbox":true,"background":true`, marker))
	sleep := waitProcess(t, func(args []string) bool { return len(args) == 2 && args[0] == "sleep" && args[1] == marker })
	if !descends(sleep, standby) {
		t.Fatalf("the command (pid %d) does not run in the sandbox built ahead (pid %d)", sleep, standby)
	}
	if err := gone(sleep); err != nil {
		t.Fatal(err)
	}
	if err := gone(standby); err != nil { // it ends with its command
		t.Fatal(err)
	}
	standby = s.waitStandby()
	m = s.call(`"command":"pwd; echo $TMPDIR","cwd":"sub","sandbox":true`)
	if out, _ := m["stdout"].(string); !strings.HasSuffix(out, "/sub\n/tmp\n") {
		t.Errorf("the command's folder and TMPDIR: %v", m)
	}
	if err := gone(standby); err != nil {
		t.Fatal(err)
	}

	// 2. A .git appears after the standby built its sandbox.
	standby = s.waitStandby()
	waitBuilt(t, standby)
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	script := `(echo hook > .git/hooks/pre-commit) 2>/dev/null && echo WROTE-HOOK; ` +
		`(echo x >> .git/config) 2>/dev/null && echo WROTE-CONFIG; ` +
		`mv .git .gitx 2>/dev/null && echo MOVED; echo RAN`
	// guarded runs script after what appeared, and checks that it ran in a
	// sandbox that guards it, not in the standby built before.
	guarded := func(what string) {
		t.Helper()
		m := s.call(fmt.Sprintf(`"command":%q,"sandbox":true`, script))
		if out, _ := m["stdout"].(string); out != "RAN\n" {
			t.Errorf("in a root whose %s appeared after the standby: %v", what, m)
		}
		if _, err := os.Stat(filepath.Join(root, ".git", "hooks", "pre-commit")); err == nil {
			t.Error("a hook was written")
		}
		if gone(standby) != nil {
			t.Errorf("the standby built before %s appeared (pid %d) was kept", what, standby)
		}
	}
	guarded(".git")

	// 2b. A git control folder appears (the standby's command line, which
	// lists them whether or not they exist, is the same).
	if err := os.RemoveAll(filepath.Join(root, ".git", "hooks")); err != nil {
		t.Fatal(err)
	}
	s.waitStandby()
	s.call(`"command":"true","sandbox":true`)
	standby = s.waitStandby()
	waitBuilt(t, standby)
	if err := os.Mkdir(filepath.Join(root, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	guarded(".git/hooks")

	// 3. The network, allowed and denied in turn.
	connect, accepted := loopback(t)
	for _, network := range []bool{true, false, false, true} {
		s.waitStandby()
		m = s.call(fmt.Sprintf(`"command":%q,"sandbox":true,"network":%v`, connect, network))
		want := map[bool]string{true: "connected\n", false: "refused\n"}[network]
		if m["stdout"] != want {
			t.Errorf("network %v: %v", network, m)
		}
		select {
		case <-accepted:
			if !network {
				t.Errorf("a connection arrived from a sandbox without network")
			}
		case <-time.After(200 * time.Millisecond):
			if network {
				t.Errorf("no connection arrived from a sandbox with network")
			}
		}
	}
}

// waitBuilt waits until the warm standby reaper's sandbox is built: juju's
// helper, which bubblewrap starts once its binds are made, waits in it.
func waitBuilt(t *testing.T, standby int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		level := []int{standby}
		for range 6 {
			var next []int
			for _, p := range level {
				next = append(next, jproc.Children(p)...)
			}
			for _, p := range next {
				args := cmdline(p)
				if n := len(args); n > 3 && args[1] == "--abi" && args[n-2] == "--await" && alive(p) {
					return
				}
			}
			level = next
		}
	}
	t.Fatalf("the standby reaper %d built no sandbox within 10 s", standby)
}

// standbySession is `juju stdio --mode trusted` driven with raw JSON-RPC lines.
type standbySession struct {
	t   *testing.T
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
	id  int
}

// standbyWorkspace skips the test unless juju can start standby reapers
// here (bubblewrap, and CAP_SYS_ADMIN for the reaper's namespaces), and
// makes a root holding files and a JUJU_HOME sharing the tests'
// compilation cache, with config as its config.toml unless empty.
func standbyWorkspace(t *testing.T, files map[string]string, config string) (root, home string) {
	t.Helper()
	needSandbox(t)
	if os.Geteuid() != 0 {
		t.Skip("the reaper's namespaces need CAP_SYS_ADMIN; without it juju starts bubblewrap directly (SECURITY.md)")
	}
	root, home = workspace(t, files), t.TempDir()
	if err := os.Symlink(sharedCache, filepath.Join(home, "cache")); err != nil {
		t.Fatal(err)
	}
	if config != "" {
		writeConfig(t, home, config)
	}
	return root, home
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
// fails the test unless it answered without error, in a sandbox. It
// returns the structured result.
func (s *standbySession) call(args string) map[string]any {
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
	return m.Result.Structured
}

// waitStandby returns the pid of juju's standby reaper, once it runs: one
// waiting for bubblewrap's command line (--standby), or one that built
// its sandbox, where juju's helper waits for the command (--await).
func (s *standbySession) waitStandby() int {
	s.t.Helper()
	helper := filepath.Join(filepath.Dir(jujuBin), "juju-sandbox")
	return waitProcess(s.t, func(args []string) bool {
		return len(args) >= 3 && args[0] == helper && args[1] == "--reap" &&
			(len(args) == 3 && args[2] == "--standby" || slices.Contains(args, "--await"))
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

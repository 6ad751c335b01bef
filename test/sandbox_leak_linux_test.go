package test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// No sandboxed process outlives juju. Each round starts juju, two
// background sandboxed sleeps, lists them, and then either cancels both
// and closes stdin at once (the cancels land while bubblewrap may still
// be setting the sandboxes up), or just closes stdin (juju's own shutdown
// kills them); once juju has exited, /proc must hold no bubblewrap and no
// sleep of the round. Killing bubblewrap before its child asked to die
// with it (bubblewrap does so only once the sandbox is set up) left that
// child to run the command on its own, out of the job's process group.
func TestSandboxedJobsDieWithJuju(t *testing.T) {
	needSandbox(t)
	const rounds = 50
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	home := newHome(t)
	began := time.Now()
	for i := range rounds {
		// A duration no other process uses marks the round's sleeps.
		marker := fmt.Sprintf("%d.%04d", 7000+os.Getpid()%1000, i)
		cancel := i%2 == 0
		if err := leakRound(home, root, marker, cancel); err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		if left := leftovers(root, marker); len(left) > 0 {
			for _, p := range left {
				syscall.Kill(p.pid, syscall.SIGKILL)
			}
			t.Fatalf("round %d (cancel: %v): alive after juju exited: %v", i, cancel, left)
		}
	}
	t.Logf("%d rounds in %v", rounds, time.Since(began).Round(time.Millisecond))
}

// startTrusted starts `juju stdio` in trusted mode over root, with home as
// JUJU_HOME, and returns it with its stdin and stdout.
func startTrusted(home, root string) (*exec.Cmd, io.WriteCloser, io.ReadCloser, error) {
	cmd := exec.Command(jujuBin, "stdio", "--root", root, "--mode", "trusted")
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	return cmd, in, out, cmd.Start()
}

// leakRound runs one juju session: two sandboxed background sleeps, the
// list, the cancels when cancel, and the end of stdin; it returns once
// juju has exited.
func leakRound(home, root, marker string, cancel bool) error {
	cmd, in, outPipe, err := startTrusted(home, root)
	if err != nil {
		return err
	}
	exited := make(chan error, 1)
	out := bufio.NewScanner(outPipe)
	out.Buffer(make([]byte, 1<<20), 16<<20)
	send := func(line string) { io.WriteString(in, line+"\n") }
	recv := func() (map[string]any, error) {
		if !out.Scan() {
			return nil, fmt.Errorf("juju closed stdout: %v", out.Err())
		}
		var m map[string]any
		return m, json.Unmarshal(out.Bytes(), &m)
	}
	fail := func(err error) error {
		cmd.Process.Kill()
		cmd.Wait()
		return err
	}
	send(initializeLine)
	if _, err := recv(); err != nil {
		return fail(err)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	var jobs []string
	for id := 2; id <= 3; id++ {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"sleep %s","background":true,"sandbox":true}}}`, id, marker))
		m, err := recv()
		if err != nil {
			return fail(err)
		}
		res, _ := m["result"].(map[string]any)
		sc, _ := res["structuredContent"].(map[string]any)
		job, _ := sc["jobId"].(string)
		if job == "" || sc["sandbox"] == "none" {
			return fail(fmt.Errorf("run_command: %s", mustJSON(m)))
		}
		jobs = append(jobs, job)
	}
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list_jobs","arguments":{}}}`)
	if _, err := recv(); err != nil {
		return fail(err)
	}
	if cancel {
		for k, job := range jobs {
			send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"cancel_job","arguments":{"jobId":%q}}}`, 10+k, job))
		}
	}
	in.Close()
	go func() {
		for out.Scan() { // the cancels' answers
		}
		exited <- cmd.Wait()
	}()
	select {
	case err := <-exited:
		if err != nil {
			return fmt.Errorf("juju exited with %v", err)
		}
	case <-time.After(20 * time.Second):
		return fail(fmt.Errorf("juju did not exit after stdin closed"))
	}
	return nil
}

type leftover struct {
	pid     int
	cmdline string
}

// leftovers lists the live processes of a round: a bubblewrap binding root,
// a sleep of marker, or a reaper of this run's juju-sandbox. A process that is dying is given a moment.
func leftovers(root, marker string) []leftover {
	var left []leftover
	helper := filepath.Join(filepath.Dir(jujuBin), "juju-sandbox") // this run's: tests here run one at a time
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		left = left[:0]
		dirs, _ := os.ReadDir("/proc")
		for _, d := range dirs {
			pid := atoi(d.Name())
			if pid == 0 {
				continue
			}
			b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
			if err != nil {
				continue
			}
			args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
			ours := len(args) == 2 && args[0] == "sleep" && args[1] == marker ||
				filepath.Base(args[0]) == "bwrap" && strings.Contains(string(b), "\x00"+root+"\x00") ||
				len(args) > 1 && args[0] == helper && args[1] == "--reap" // busy or standby
			if ours && alive(pid) {
				left = append(left, leftover{pid, strings.Join(args, " ")})
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
	}
}

// Nor does one outlive a juju killed outright (SIGKILL) while it starts
// them: each round has one sandboxed sleep answered (after a sandboxed
// command that ended, so under a standby reaper), sends two more and
// kills juju a few milliseconds later, while bubblewrap may be anywhere in
// its setup. bubblewrap runs under the reaper (juju-sandbox --reap), the
// init of a PID namespace juju makes with the parent-death signal set
// race-free by the kernel's clone: its death takes every process of the
// namespace with it.
func TestSandboxedJobsDieWithKilledJuju(t *testing.T) {
	needSandbox(t)
	if os.Geteuid() != 0 {
		t.Skip("the reaper's namespaces need CAP_SYS_ADMIN; without it juju starts bubblewrap directly (SECURITY.md)")
	}
	const rounds = 50
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	home := newHome(t)
	var leaked []string
	for i := range rounds {
		marker := fmt.Sprintf("%d.%04d", 8000+os.Getpid()%1000, i)
		if err := killRound(home, root, marker, time.Duration(i%8)*time.Millisecond); err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		if left := leftovers(root, marker); len(left) > 0 {
			for _, p := range left {
				syscall.Kill(p.pid, syscall.SIGKILL)
			}
			leaked = append(leaked, fmt.Sprintf("round %d: %d processes, the first %q", i, len(left), left[0].cmdline))
		}
	}
	if len(leaked) > 0 {
		t.Fatalf("%d of %d rounds left processes alive after juju was killed:\n%s", len(leaked), rounds, strings.Join(leaked, "\n"))
	}
}

// killRound starts juju, one sandboxed sleep it answers and two it has
// not answered yet, and kills juju after delay.
func killRound(home, root, marker string, delay time.Duration) error {
	cmd, in, outPipe, err := startTrusted(home, root)
	if err != nil {
		return err
	}
	defer cmd.Wait()
	out := bufio.NewScanner(outPipe)
	out.Buffer(make([]byte, 1<<20), 16<<20)
	sleep := func(id int) {
		io.WriteString(in, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"sleep %s","background":true,"sandbox":true}}}`+"\n", id, marker))
	}
	io.WriteString(in, initializeLine+"\n")
	if !out.Scan() {
		cmd.Process.Kill()
		return fmt.Errorf("juju closed stdout: %v", out.Err())
	}
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	// A command that ends leaves a standby reaper for the next one: the
	// first sleep runs under it, and the last two under one starting, or
	// under a reaper of their own.
	trueCmd := func(id int) error {
		io.WriteString(in, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"true","sandbox":true}}}`+"\n", id))
		if !out.Scan() || !strings.Contains(out.Text(), `"exitCode":0`) {
			cmd.Process.Kill()
			return fmt.Errorf("true: %s %v", out.Text(), out.Err())
		}
		return nil
	}
	if err := trueCmd(5); err != nil {
		return err
	}
	sleep(2)
	if !out.Scan() || !strings.Contains(out.Text(), `"jobId"`) {
		cmd.Process.Kill()
		return fmt.Errorf("the first sleep: %s %v", out.Text(), out.Err())
	}
	if err := trueCmd(6); err != nil {
		return err
	}
	sleep(3)
	sleep(4)
	time.Sleep(delay)
	return cmd.Process.Signal(syscall.SIGKILL)
}

package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// nprocLimit is the RLIMIT_NPROC juju runs under in
// TestSandboxBoundsItsProcesses: small, so that a command filling it
// stays a test and not a fork bomb.
const nprocLimit = 200

// userTasks counts the processes and threads of uid on the machine.
func userTasks(uid int) int {
	n := 0
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != uid {
			continue
		}
		tasks, _ := os.ReadDir(filepath.Join(p, "task"))
		n += len(tasks)
	}
	return n
}

// A sandboxed command that starts processes without end must not take
// every process its owner may have: juju, the same user, creates a thread
// when its goroutines block (a write syncing to disk), and died of
// "runtime: failed to create new OS thread" the first time it needed one
// with none left, ending the session. juju runs here as an ordinary user
// under a small RLIMIT_NPROC (the bound of the whole test), a command
// forks until it can no more, and juju must still answer forty writes at
// once and run the next command.
func TestSandboxBoundsItsProcesses(t *testing.T) {
	needSandbox(t)
	u := asNobody(t)
	if !u.userNS {
		t.Skip("bubblewrap gives an ordinary user no user namespace here, where the process limit is counted")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("no prlimit (util-linux) to bound the test's processes")
	}
	root := u.dir("root")
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644)
	os.Chown(filepath.Join(root, "a.txt"), nobodyUID, nobodyUID)
	args := append(append([]string{"--nproc=" + strconv.Itoa(nprocLimit) + ":" + strconv.Itoa(nprocLimit), u.setpriv}, u.prefix...),
		u.juju, "stdio", "--root", root, "--mode", "trusted", "--sandbox", "require")
	s := startCommand(t, u.env, prlimit, args, u.home, root)

	m := structured(t, s.call("run_command", map[string]any{
		"command":    "for i in $(seq 400); do sleep 120 & done 2>/dev/null; echo spawned; wait",
		"background": true,
	}))
	job, _ := m["jobId"].(string)
	// Wait until the command can start no more: the count stays put.
	last, still := -1, 0
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && still < 10; time.Sleep(200 * time.Millisecond) {
		if n := userTasks(nobodyUID); n == last {
			still++
		} else {
			last, still = n, 0
		}
	}
	t.Logf("the user's tasks with the command's processes: %d (RLIMIT_NPROC %d)", last, nprocLimit)

	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.callErr("write_file", map[string]any{"path": "w" + strconv.Itoa(i) + ".txt", "content": strings.Repeat("x", 100_000)})
			if err == nil && res.IsError {
				t.Logf("write %d: %s", i, text(res))
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("juju did not answer a write while a command held the processes: %v\nstderr:\n%s", err, s.stderr())
		}
	}
	s.call("cancel_job", map[string]any{"jobId": job})
	out := runIn(t, s, "echo after")
	if out != "after\n" {
		t.Errorf("the next command printed %q", out)
	}
}

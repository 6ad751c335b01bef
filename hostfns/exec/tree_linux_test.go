package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// Each way a job ends — cancel_job, its timeout, the client cancelling the
// call, the command exiting, juju closing — kills every process the
// command started: those that left its group for a session of their own
// while their parent lives (setsid x &, which a group kill misses and
// which outlived the group's SIGTERM while their parent died of it), and
// those whose parent died first, by a double fork or by the command
// ending (juju, their subreaper, was handed them).
func TestEveryEndKillsTheWholeTree(t *testing.T) {
	if _, err := os.Stat("/usr/bin/setsid"); err != nil {
		t.Skip("no setsid")
	}
	tree := func(m string) string {
		return fmt.Sprintf("setsid sleep %s1 & (setsid sleep %s2 &) ; sleep %s3 & ", m, m, m)
	}
	cases := []struct {
		name, command string
		end           func(t *testing.T, m *Manager, shell, job handle, command, marker string)
	}{
		{"cancel_job", "sleep 100", func(t *testing.T, m *Manager, shell, job handle, command, marker string) {
			r := run(t, shell, abi.ExecRequest{Command: command, Background: true})
			waitSleepers(t, marker)
			jr, _, err := call[abi.JobResult](t, job, abi.JobRequest{Op: abi.JobCancel, JobID: r.JobID})
			if err != nil || jr.Job.State != abi.JobKilled {
				t.Fatalf("cancel: %+v %v", jr, err)
			}
		}},
		{"timeout", "exec sleep 100", func(t *testing.T, m *Manager, shell, job handle, command, marker string) {
			r := run(t, shell, abi.ExecRequest{Command: command, Background: true, TimeoutMs: 1500})
			waitSleepers(t, marker)
			jr, _, err := call[abi.JobResult](t, job, abi.JobRequest{Op: abi.JobWait, JobID: r.JobID, WaitMs: 20000})
			if err != nil || jr.Job.State != abi.JobTimeout {
				t.Fatalf("timeout: %+v %v", jr, err)
			}
		}},
		{"cancelled call", "sleep 100", func(t *testing.T, m *Manager, shell, job handle, command, marker string) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				for len(sleepersOf(marker)) < 3 {
					time.Sleep(20 * time.Millisecond)
				}
				cancel()
			}()
			b, _ := json.Marshal(abi.ExecRequest{Command: command})
			rh, _ := shell(ctx, b, nil)
			var r abi.ExecResult
			if err := json.Unmarshal(rh, &r); err != nil || r.State != abi.JobKilled {
				t.Fatalf("cancelled call: %s", rh)
			}
		}},
		{"exit", "while [ ! -e go ]; do sleep 0.02; done; echo done", func(t *testing.T, m *Manager, shell, job handle, command, marker string) {
			r := run(t, shell, abi.ExecRequest{Command: command, Background: true})
			waitSleepers(t, marker)
			if err := os.WriteFile(filepath.Join(m.pol.Roots()[0].Real, "go"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			jr, _, err := call[abi.JobResult](t, job, abi.JobRequest{Op: abi.JobWait, JobID: r.JobID, WaitMs: 20000})
			if err != nil || jr.Job.State != abi.JobExited {
				t.Fatalf("exit: %+v %v", jr, err)
			}
		}},
		{"close", "sleep 100", func(t *testing.T, m *Manager, shell, job handle, command, marker string) {
			run(t, shell, abi.ExecRequest{Command: command, Background: true})
			waitSleepers(t, marker)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := m.Close(ctx); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, _ := newManager(t, Options{BackgroundAfter: 20 * time.Second})
			fns := m.Funcs()
			marker := strconv.Itoa(7100 + i*10 + os.Getpid()%7*1000)
			command := tree(marker) + c.command
			c.end(t, m, fns[1].Handle, fns[2].Handle, command, marker)
			for deadline := time.Now().Add(10 * time.Second); len(sleepersOf(marker)) > 0; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					left := sleepersOf(marker)
					for _, p := range left {
						p.Signal(os.Kill)
					}
					t.Fatalf("%d processes of the job outlived it", len(left))
				}
			}
		})
	}
}

// A descendant in a session of its own gets SIGTERM and the grace to
// handle it, like the command's group.
func TestCancelTermsTheWholeTree(t *testing.T) {
	if _, err := os.Stat("/usr/bin/setsid"); err != nil {
		t.Skip("no setsid")
	}
	m, _ := newManager(t, Options{BackgroundAfter: 20 * time.Second})
	fns := m.Funcs()
	bye := filepath.Join(t.TempDir(), "bye")
	t.Cleanup(func() { killMatching(bye) })
	r := run(t, fns[1].Handle, abi.ExecRequest{Background: true,
		Command: fmt.Sprintf(`setsid sh -c 'trap "echo bye > %s; exit" TERM; echo up > %s.up; while :; do sleep 0.05; done' & sleep 100`, bye, bye)})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(bye + ".up"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the job never started")
		}
	}
	call[abi.JobResult](t, fns[2].Handle, abi.JobRequest{Op: abi.JobCancel, JobID: r.JobID})
	if b, err := os.ReadFile(bye); err != nil || string(b) != "bye\n" {
		t.Fatalf("the descendant in its own session handled no SIGTERM: %q %v", b, err)
	}
}

// The orphans juju is handed as their subreaper are reaped: none is left
// a zombie, however many a command makes.
func TestOrphansAreReaped(t *testing.T) {
	m, _ := newManager(t, Options{})
	r := run(t, m.Funcs()[1].Handle, abi.ExecRequest{Command: "for i in $(seq 20); do (true &); (sleep 0.2 &); done"})
	if r.State != abi.JobExited {
		t.Fatalf("%+v", r)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		z := zombieChildren()
		if z == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d orphans left zombies", z)
		}
	}
}

type handle = func(context.Context, []byte, []byte) ([]byte, []byte)

func run(t *testing.T, shell handle, req abi.ExecRequest) *abi.ExecResult {
	t.Helper()
	r, _, err := call[abi.ExecResult](t, shell, req)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// waitSleepers waits for the three sleeps of a job's tree to run.
func waitSleepers(t *testing.T, marker string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); len(sleepersOf(marker)) < 3; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the job never started its sleeps %s*", marker)
		}
	}
}

// sleepersOf finds the running processes `sleep MARKER<digit>`.
func sleepersOf(marker string) []*os.Process {
	var found []*os.Process
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err != nil || !strings.HasPrefix(string(b), "sleep\x00"+marker) || len(b) != len("sleep\x00"+marker)+2 {
			continue
		}
		if st, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat")); err == nil {
			s := string(st)
			if i := strings.LastIndexByte(s, ')'); i > 0 && i+2 < len(s) && s[i+2] == 'Z' {
				continue
			}
		}
		p, _ := os.FindProcess(pid)
		found = append(found, p)
	}
	return found
}

// zombieChildren counts this process's children that ended and were not
// reaped.
func zombieChildren() int {
	n := 0
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, task := range tasks {
		b, _ := os.ReadFile("/proc/self/task/" + task.Name() + "/children")
		for _, f := range strings.Fields(string(b)) {
			st, _ := os.ReadFile("/proc/" + f + "/stat")
			s := string(st)
			if i := strings.LastIndexByte(s, ')'); i > 0 && i+2 < len(s) && s[i+2] == 'Z' {
				n++
			}
		}
	}
	return n
}

// killMatching kills the processes whose command line holds s.
func killMatching(s string) {
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if b, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline")); err == nil && strings.Contains(string(b), s) {
			if p, err := os.FindProcess(pid); err == nil {
				p.Signal(os.Kill)
			}
		}
	}
}

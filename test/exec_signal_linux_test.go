package test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// jujuPid is the pid of the juju serving s: the parent of its commands.
func jujuPid(t *testing.T, s *session) int {
	t.Helper()
	m := structured(t, s.call("run_command", map[string]any{"command": "echo $PPID"}))
	pid, err := strconv.Atoi(strings.TrimSpace(m["stdout"].(string)))
	if err != nil {
		t.Fatalf("juju's pid: %v", m)
	}
	return pid
}

// waitGone waits for pid to end (a zombie counts: the client reaps it).
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s still runs", what)
		}
	}
}

// A terminal or ssh session that closes sends juju SIGHUP: it closes as
// for SIGTERM, its jobs killed (one in the background of its command too)
// and their logs removed, rather than die and leave them.
func TestExecJobsEndOnSIGHUP(t *testing.T) {
	marker := strconv.Itoa(5000 + int(time.Now().UnixNano()%1000))
	s := startExec(t, workspace(t, nil))
	pid := jujuPid(t, s)
	s.ok("run_command", map[string]any{"command": "sleep " + marker + " & sleep " + marker, "background": true})
	for deadline := time.Now().Add(10 * time.Second); len(sleepers(marker)) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the job never started")
		}
	}
	folders, _ := filepath.Glob(filepath.Join(s.home, "state", "workspaces", "*", "jobs", strconv.Itoa(pid)))
	if len(folders) != 1 {
		t.Fatalf("juju's jobs folder: %v", folders)
	}
	t.Cleanup(func() {
		for _, p := range sleepers(marker) {
			syscall.Kill(atoi(p), syscall.SIGKILL)
		}
	})
	syscall.Kill(pid, syscall.SIGHUP)
	waitGone(t, pid, "juju, sent SIGHUP,")
	for deadline := time.Now().Add(10 * time.Second); len(sleepers(marker)) > 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("a job outlived juju's SIGHUP: %v", sleepers(marker))
		}
	}
	if _, err := os.Stat(folders[0]); !os.IsNotExist(err) {
		t.Errorf("juju's jobs folder was left: %v", err)
	}
}

// A juju that starts removes the jobs folders of jujus gone (killed
// outright: nothing of theirs ran at their end), and keeps those of the
// jujus that run, for the same workspace.
func TestStaleJobsFoldersAreRemoved(t *testing.T) {
	root, home := workspace(t, nil), t.TempDir()
	args := []string{"--mode", "trusted", "--sandbox", "off"}
	killed := startHome(t, home, root, args...)
	killedPid := jujuPid(t, killed)
	running := startHome(t, home, root, args...)
	runningPid := jujuPid(t, running)
	folder := func(pid int) string {
		f, _ := filepath.Glob(filepath.Join(home, "state", "workspaces", "*", "jobs", strconv.Itoa(pid)))
		if len(f) != 1 {
			t.Fatalf("the jobs folder of %d: %v", pid, f)
		}
		return f[0]
	}
	killedDir, runningDir := folder(killedPid), folder(runningPid)
	syscall.Kill(killedPid, syscall.SIGKILL)
	waitGone(t, killedPid, "juju, killed,")
	if _, err := os.Stat(killedDir); err != nil {
		t.Fatalf("a killed juju's folder is gone before any other juju started: %v", err)
	}
	next := startHome(t, home, root, args...)
	jujuPid(t, next)
	if _, err := os.Stat(killedDir); !os.IsNotExist(err) {
		t.Errorf("the folder of a juju killed outright was left: %v", err)
	}
	if _, err := os.Stat(runningDir); err != nil {
		t.Errorf("the folder of a juju that runs was removed: %v", err)
	}
	running.ok("run_command", map[string]any{"command": "true"})
}

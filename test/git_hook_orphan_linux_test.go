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

// A repository's hook that leaves a process behind, run unconfined
// (sandbox off), loses it when git ends, as a command's orphans end with
// its job: a pre-commit hook's `(setsid sleep &)` outlived the call and
// juju itself, and its hold on git's output had git_commit answer that
// git could not be run, though the commit was made.
func TestGitHookLeavesNothingRunning(t *testing.T) {
	root := gitRepo(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	write(t, root, ".git/hooks/pre-commit", "#!/bin/sh\n"+
		"(setsid sh -c 'echo $$ > "+pidFile+".tmp && mv "+pidFile+".tmp "+pidFile+"; trap \"\" TERM HUP; exec sleep 1000' &)\n"+
		"while [ ! -s "+pidFile+" ]; do sleep 0.05; done\n")
	os.Chmod(filepath.Join(root, ".git/hooks/pre-commit"), 0o755)
	t.Cleanup(func() { // what a failed run left
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	s := start(t, root, "--mode", "trusted", "--sandbox", "off")
	out := s.ok("git_commit", map[string]any{"message": "m", "paths": []any{"notes.txt"}})
	if !strings.Contains(out, "committed") {
		t.Errorf("git_commit: %s", out)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the hook did not run: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	// juju reaps what it killed soon after; a process still running
	// (not gone, not a zombie) seconds later was left behind.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i:]), ") Z") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hook's process %d still runs after git_commit answered: %s", pid, stat)
		}
	}
}

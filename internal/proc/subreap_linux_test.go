package proc

import (
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// ReapOrphans tells os/exec's children from orphans by the pidfd os/exec
// holds for each from its start until its Wait reaped it: this checks the
// Go release juju is built with still does.
func TestExecHoldsAPidfdUntilWait(t *testing.T) {
	if !pidfdsWork() {
		t.Skip("no pidfds here")
	}
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, state, ok := statOf(pid); ok && state == 'Z' {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the child never ended")
		}
	}
	if !pidfdPids()[pid] {
		t.Fatal("os/exec holds no pidfd for a child it has not waited for: ReapOrphans would take its exit")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if pidfdPids()[pid] {
		t.Error("os/exec still holds a pidfd for a child it waited for")
	}
}

// A subreaper reaping its orphans as fast as it can never takes the exit
// of a child os/exec waits for, and leaves no orphan a zombie.
func TestReapOrphansLeavesOSExecChildren(t *testing.T) {
	if !Subreap() {
		t.Skip("no subreaper here")
	}
	stop := make(chan struct{})
	var reaper sync.WaitGroup
	reaper.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				ReapOrphans()
			}
		}
	})
	var failed atomic.Int32
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 25 {
				// Each leaves an orphan behind, and ends at once.
				err := exec.Command("sh", "-c", "(true &); exit 3").Run()
				if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
					t.Errorf("os/exec lost its child's exit: %v", err)
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	reaper.Wait()
	if failed.Load() > 0 {
		return
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		ReapOrphans()
		zombies := 0
		for _, c := range Children(os.Getpid()) {
			if _, state, ok := statOf(c); ok && state == 'Z' {
				zombies++
			}
		}
		if zombies == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d orphans left zombies", zombies)
		}
	}
}

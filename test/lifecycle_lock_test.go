//go:build unix

package test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/filelock"
)

// A lifecycle command that finds another holding the lock says it waits,
// and stops at the owner's Ctrl-C, changing nothing.
func TestLifecycleLockWaitSaysSoAndStopsOnInterrupt(t *testing.T) {
	home := newHome(t)
	data := filepath.Join(home, "data")
	os.MkdirAll(data, 0o700)
	unlock, err := filelock.Lock(filepath.Join(data, ".plugins.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()

	cmd := exec.Command(jujuBin, "plugins", "remove", "test-raw")
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	exited := make(chan error, 1)
	var said []string
	select {
	case l := <-lines:
		said = append(said, l)
		if !strings.Contains(l, "waiting for another juju plugins command") {
			t.Fatalf("the first line while the lock is held: %q", l)
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("no word of waiting for the lock after 30 s")
	}
	cmd.Process.Signal(os.Interrupt)
	go func() {
		for l := range lines {
			said = append(said, l)
		}
		exited <- cmd.Wait()
	}()
	select {
	case err := <-exited:
		if err == nil {
			t.Fatal("the interrupted command exited 0")
		}
		if all := strings.Join(said, "\n"); !strings.Contains(all, "while waiting for another juju plugins command; nothing changed") {
			t.Fatalf("stderr:\n%s", all)
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("Ctrl-C did not stop a command waiting for the lock")
	}
}

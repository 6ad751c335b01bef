//go:build unix

package host

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	jexec "github.com/jujutools/juju/hostfns/exec"
	"github.com/jujutools/juju/internal/config"
)

// The command manager is made by the warm-up, not by New: the job logs a
// gone juju left are swept, and the sandbox's folders resolved, after the
// first answer rather than before it. A call that comes before the warm-up
// makes it itself (the exec tests through the binary).
func TestJobsManagerIsMadeByTheWarmUp(t *testing.T) {
	cfg := jobsConfig(t)
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	state := h.StateDir()
	h.Close(context.Background())

	// The job logs of a juju that is gone: a pid no process has.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(state, "jobs", strconv.Itoa(dead.Process.Pid))
	if err := os.MkdirAll(gone, 0o700); err != nil {
		t.Fatal(err)
	}

	h, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	if h.exec.Load() != nil {
		t.Fatal("New made the command manager")
	}
	if _, err := os.Stat(gone); err != nil {
		t.Fatalf("New swept a gone juju's job logs, work the first answer does not need: %v", err)
	}
	if got := h.JobOwners(); got != nil || h.EndJobs("someone") != 0 {
		t.Fatalf("jobs reported before any manager: %v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the manager only, no compilation
	h.Warm(ctx)
	select {
	case <-h.Warmed():
	case <-time.After(time.Minute):
		t.Fatal("the warm-up did not end")
	}
	if h.exec.Load() == nil {
		t.Fatal("the warm-up did not make the command manager")
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Fatalf("the warm-up did not sweep a gone juju's job logs: %v", err)
	}
}

// Close waits for a command manager being made (the warm-up inside jobs)
// and closes it: it read the manager without waiting, found none while
// the warm-up was making it, and the one made after was never closed, its
// jobs left running past juju. A Close with no manager asked for makes
// none, and a call after Close still gets one, closed.
func TestCloseWaitsForTheJobsManagerBeingMade(t *testing.T) {
	cfg := jobsConfig(t)
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	inside, release := make(chan struct{}), make(chan struct{})
	var released atomic.Bool
	h.makeJobs = func() *jexec.Manager {
		close(inside)
		<-release
		return h.newJobs()
	}
	made := make(chan *jexec.Manager)
	go func() { made <- h.jobs() }()
	<-inside
	closed := make(chan bool)
	go func() {
		h.Close(context.Background())
		closed <- released.Load()
	}()
	// Close is given a while to run past the manager; the fixed one waits
	// for it whatever the while, so this only decides how surely the
	// unfixed one is caught.
	select {
	case afterRelease := <-closed:
		t.Fatalf("Close returned while the manager was being made (after its making ended: %v)", afterRelease)
	case <-time.After(2 * time.Second):
	}
	released.Store(true)
	close(release)
	if !<-closed {
		t.Fatal("Close returned before the manager was made")
	}
	if m := <-made; m == nil || h.exec.Load() != m {
		t.Fatal("no manager after its making")
	}

	h, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.Close(context.Background())
	if h.exec.Load() != nil {
		t.Fatal("Close made a command manager none asked for")
	}
	if h.jobs() == nil {
		t.Fatal("a call after Close got no command manager")
	}
}

// jobsConfig is a host's configuration over an empty root, with folders of
// its own and the tests' shared compilation cache.
func jobsConfig(t *testing.T) Config {
	t.Helper()
	tmp := t.TempDir()
	root := filepath.Join(tmp, "ws")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	return Config{Roots: []string{root}, Dirs: config.Dirs{
		Config: filepath.Join(tmp, "config"), State: filepath.Join(tmp, "state"), Data: filepath.Join(tmp, "data"),
		Cache: filepath.Join(os.TempDir(), "juju-test-wazero-cache"),
	}}
}

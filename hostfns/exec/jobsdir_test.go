//go:build unix

package exec

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/jujutools/juju/internal/filelock"
	"github.com/jujutools/juju/sdk/abi"
)

// SweepJobs removes the jobs folders of jujus that are gone and keeps
// those of jujus that run: a folder's lock, held from before it has its
// name, tells; without one (an older juju's) its pid does.
func TestSweepJobs(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadPid := strconv.Itoa(dead.Process.Pid)
	livePid := strconv.Itoa(os.Getpid())

	// A running juju's: a Manager that made its folder.
	m, _ := newManager(t, Options{JobsDir: filepath.Join(dir, "1")})
	if _, _, err := call[abi.ExecResult](t, m.Funcs()[1].Handle, abi.ExecRequest{Command: "true"}); err != nil {
		t.Fatal(err)
	}
	mk := func(name string, lock bool) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(p, "job-1.out"), []byte("log"), 0o600)
		if lock {
			unlock, err := filelock.Lock(filepath.Join(p, lockFile))
			if err != nil {
				t.Fatal(err)
			}
			unlock() // its juju is gone: the lock is free
		}
		return p
	}
	freed := mk("2", true)        // killed outright: its lock free
	oldDead := mk(deadPid, false) // an older juju's, gone
	oldLive := mk(livePid, false) // an older juju's, running
	making := mk("."+livePid+newSuffix, true)
	other := mk("notes", false)

	removed := SweepJobs(dir)
	for _, p := range []string{freed, oldDead} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s was kept: %v", filepath.Base(p), err)
		}
	}
	for _, p := range []string{m.opts.JobsDir, oldLive, making, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
	if len(removed) < 2 {
		t.Errorf("removed %v", removed)
	}
}

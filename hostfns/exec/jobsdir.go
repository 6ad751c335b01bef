package exec

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jujutools/juju/internal/filelock"
	"github.com/jujutools/juju/internal/proc"
)

// lockFile is the file in a jobs folder whose lock (filelock) its juju
// holds for as long as it runs, so that another juju can tell a folder
// left behind from one in use (SweepJobs).
const lockFile = ".lock"

// newSuffix ends the name a jobs folder is made under, lock taken, before
// it gets its own: a folder never shows under its name without its lock
// held.
const newSuffix = ".new"

// makeJobsDir makes the jobs folder, unless it is there, and holds its
// lock until Close. m.mu is held.
func (m *Manager) makeJobsDir() error {
	dir := m.opts.JobsDir
	if m.unlockDir != nil {
		if _, err := os.Stat(dir); err == nil {
			return nil
		}
		m.unlockDir() // removed from under juju: made again
		m.unlockDir = nil
	}
	parent, base := filepath.Split(dir)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return err
	}
	tmp := filepath.Join(parent, "."+base+newSuffix)
	os.RemoveAll(tmp) // left by a juju gone that had this pid
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return err
	}
	unlock, err := filelock.Lock(filepath.Join(tmp, lockFile))
	if err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(dir) // left by a juju gone that had this pid
		if err := os.Rename(tmp, dir); err != nil {
			unlock()
			os.RemoveAll(tmp)
			return err
		}
	}
	m.unlockDir = unlock
	return nil
}

// SweepJobs removes from dir, which holds the jobs folder of each juju
// serving a workspace named by its pid, the folders of jujus that are gone
// (killed outright, or by a signal juju does not handle) with the logs in
// them: one whose lock is free, or, made by a juju before the lock, one
// whose pid no process has. A folder whose lock is held, that is whose
// juju runs, is kept, as is one without a lock whose pid is alive. It
// returns the folders removed.
func SweepJobs(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		pidText := name
		if n, ok := strings.CutPrefix(name, "."); ok {
			pidText = strings.TrimSuffix(n, newSuffix) // a folder being made
		}
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || !e.IsDir() {
			continue
		}
		path := filepath.Join(dir, name)
		unlock, err := filelock.TryLock(filepath.Join(path, lockFile))
		switch {
		case err == nil && pidText == name:
			os.RemoveAll(path)
			unlock()
		case err == nil:
			unlock() // a folder being made: only its pid tells
			fallthrough
		case errors.Is(err, os.ErrNotExist):
			if proc.Alive(pid) {
				continue
			}
			os.RemoveAll(path)
		default:
			continue // held: its juju runs
		}
		removed = append(removed, path)
	}
	return removed
}

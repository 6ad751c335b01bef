package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/jujutools/juju/hostfns/journal"
	"github.com/jujutools/juju/internal/audit"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/policy"
)

// openChanges opens the workspace's journal for `juju audit`, so each call
// is shown with the changes it made. A workspace nothing was ever written
// in has no journal: nil, and the audit shows calls alone.
func openChanges(stateDir string, roots []string, dirs config.Dirs) (audit.ChangeLister, error) {
	if _, err := os.Stat(filepath.Join(stateDir, journal.FileName)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	pol, err := policy.New(policy.Config{Roots: roots, Private: dirs.All()})
	if err != nil {
		return nil, err
	}
	j, err := journal.Open(stateDir, pol)
	if err != nil {
		pol.Close()
		return nil, err
	}
	return journalChanges{j}, nil
}

// journalChanges adapts the journal to the audit's ChangeLister.
type journalChanges struct{ j *journal.Journal }

func (c journalChanges) Changes(since time.Time) ([]audit.Change, error) {
	sums, err := c.j.Changes(since)
	if err != nil {
		return nil, err
	}
	out := make([]audit.Change, len(sums))
	for i, s := range sums {
		out[i] = audit.Change{ID: s.ID, CallID: s.CallID, Time: s.Time, Paths: s.Paths, RolledBack: s.RolledBack}
	}
	return out, nil
}

var _ audit.ChangeLister = journalChanges{}

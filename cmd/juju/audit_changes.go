package main

import (
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/jujutools/juju/internal/audit"
	"github.com/jujutools/juju/internal/journal"
)

// changesOf lists the journal's changes for `juju audit`, so each call is
// shown with the changes it made. A workspace nothing was ever written in
// has no journal: nil, and the audit shows calls alone.
func changesOf(j *journal.Journal) audit.ChangeLister {
	if _, err := os.Stat(j.Path()); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return journalChanges{j}
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

package main

import (
	"path/filepath"
	"testing"
)

// juju doctor --json on a workspace it cannot open still gives the
// journal's limits as the config file sets them: 0 means "no limit", so a
// script reading maxAgeDays 0 would believe the journal keeps every change.
func TestDoctorJournalLimitsOnABadRoot(t *testing.T) {
	dirs := jujuHome(t)
	good := t.TempDir()
	r, _ := doctorJSON(t, &doctorOptions{roots: []string{filepath.Join(good, "missing")}}, doctorEnv{dirs: dirs, open: notBuilt, cwd: good})
	j := r.Journal
	if j == nil || j.Error == "" {
		t.Fatalf("a missing root: journal %+v, want its error", j)
	}
	if j.MaxAgeDays != 30 || j.MaxSizeMiB != 256 || j.Keeps == "" {
		t.Errorf("a missing root: journal limits %d days, %d MiB, keeps %q; want the defaults, 30 days and 256 MiB", j.MaxAgeDays, j.MaxSizeMiB, j.Keeps)
	}
}

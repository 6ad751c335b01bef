package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// claimRecord is a record of realistic size (its arguments at the
// ShortArgs bound), told apart by its call id.
func claimRecord(at time.Time, id string) *Record {
	return &Record{
		Time: at, CallID: id, Client: "claims-client", Plugin: "core", Tool: "write_file", Tier: "E",
		Args: strings.Repeat("a", maxArgs), Outcome: OutcomeOK, DurationMs: 1.5,
	}
}

// claimFillFile writes records to the file at path, as a juju appending
// them would, until it is past MaxSize, and returns how many it wrote.
func claimFillFile(t *testing.T, path, prefix string, t0 time.Time) int {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	var b []byte
	n := 0
	for len(b) <= MaxSize {
		var err error
		if b, err = appendRecord(b, claimRecord(t0.Add(time.Duration(n)*time.Millisecond), fmt.Sprintf("%s-%d", prefix, n))); err != nil {
			t.Fatal(err)
		}
		b = append(b, '\n')
		n++
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return n
}

// claimIDs returns the call ids of the records in the file at path.
func claimIDs(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ids []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: a line does not decode: %v", path, err)
		}
		ids = append(ids, r.CallID)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestClaimAuditLogRotatedPast32MiB holds the claim of docs/SECURITY.md
// (the audit log): the log is "rotated past 32 MiB". A log filled past
// 32 MiB is moved to audit.jsonl.1 (whole, every old record kept) when
// juju next opens it; audit.jsonl then holds only the newest records,
// far under the bound, and Read returns old and new in order.
func TestClaimAuditLogRotatedPast32MiB(t *testing.T) {
	if MaxSize != 32<<20 {
		t.Errorf("MaxSize = %d, the claim says 32 MiB", MaxSize)
	}
	path := Path(filepath.Join(t.TempDir(), "ws"))
	t0 := time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)

	old := claimFillFile(t, path, "old", t0)
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}

	// The next juju opens the log and appends the newest records.
	newest := t0.Add(time.Hour)
	l := Open(path)
	for i := range 3 {
		if err := l.Append(claimRecord(newest.Add(time.Duration(i)*time.Second), fmt.Sprint("new-", i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}

	rotated, err := os.Stat(path + ".1")
	if err != nil {
		t.Fatalf("a log of %d bytes (past %d) was not rotated to %s.1: %v", before.Size(), MaxSize, FileName, err)
	}
	if rotated.Size() != before.Size() {
		t.Errorf("%s.1 holds %d bytes, the rotated log had %d", FileName, rotated.Size(), before.Size())
	}
	if ids := claimIDs(t, path+".1"); len(ids) != old || ids[0] != "old-0" || ids[len(ids)-1] != fmt.Sprint("old-", old-1) {
		t.Errorf("%s.1 holds %d records (%v … ), want the %d old ones", FileName, len(ids), ids[:min(len(ids), 3)], old)
	}
	cur, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if cur.Size() >= MaxSize || cur.Size() > 64<<10 {
		t.Errorf("the current log holds %d bytes after rotation, want only the newest records", cur.Size())
	}
	if ids := claimIDs(t, path); strings.Join(ids, ",") != "new-0,new-1,new-2" {
		t.Errorf("the current log holds %v, want the newest records only", ids)
	}
	if cur.Mode().Perm() != 0o600 || rotated.Mode().Perm() != 0o600 {
		t.Errorf("modes %v and %v, want 0600", cur.Mode().Perm(), rotated.Mode().Perm())
	}

	// juju audit still reads both, oldest first.
	all, err := Read(path, Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != old+3 || all[0].CallID != "old-0" || all[len(all)-1].CallID != "new-2" {
		t.Errorf("Read: %d records, first %q, last %q; want %d from old-0 to new-2", len(all), all[0].CallID, all[len(all)-1].CallID, old+3)
	}
}

// TestClaimAuditLogBoundedWhileOpen holds the same claim ("rotated past
// 32 MiB") for a juju that keeps running: the log one process keeps open
// is rotated as it grows, within checkEvery of the bound, and no record is
// lost at the rotation.
func TestClaimAuditLogBoundedWhileOpen(t *testing.T) {
	path := Path(filepath.Join(t.TempDir(), "ws"))
	t0 := time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)
	l := Open(path)
	defer l.Close()
	var written int64
	n := 0
	for ; written < MaxSize+3*checkEvery; n++ {
		r := claimRecord(t0.Add(time.Duration(n)*time.Millisecond), fmt.Sprint("run-", n))
		b, _ := appendRecord(nil, r)
		written += int64(len(b) + 1)
		if err := l.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > MaxSize+checkEvery+4096 {
		t.Errorf("the current log holds %d bytes, past %d and the slack of one look (%d)", info.Size(), MaxSize, checkEvery)
	}
	rotated := claimIDs(t, path+".1")
	current := claimIDs(t, path)
	all := append(rotated, current...)
	for i, id := range all {
		if want := fmt.Sprint("run-", n-len(all)+i); id != want {
			t.Fatalf("record %d of the two files is %s, want %s: a record was lost or reordered at the rotation", i, id, want)
		}
	}
	if len(current) == 0 || current[len(current)-1] != fmt.Sprint("run-", n-1) {
		t.Errorf("the current log does not end with the newest record")
	}
}

// TestRotationAcrossProcesses checks the rotation when two juju processes
// append to one log (two Logs here): one of them rotates, the other opens
// the new file when it next looks, no record is lost, and the log stays
// within the bound and the slack of each writer's look.
func TestRotationAcrossProcesses(t *testing.T) {
	path := Path(filepath.Join(t.TempDir(), "ws"))
	t0 := time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)
	logs := []*Log{Open(path), Open(path)}
	var written int64
	n := 0
	for ; written < MaxSize+3*checkEvery; n++ {
		r := claimRecord(t0.Add(time.Duration(n)*time.Millisecond), fmt.Sprint("p", n%2, "-", n))
		b, _ := appendRecord(nil, r)
		written += int64(len(b) + 1)
		if err := logs[n%2].Append(r); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range logs {
		l.Close()
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > MaxSize+2*checkEvery+4096 {
		t.Errorf("the current log holds %d bytes, past the bound and two writers' slack", info.Size())
	}
	seen := map[string]bool{}
	for _, id := range append(claimIDs(t, path+".1"), claimIDs(t, path)...) {
		if seen[id] {
			t.Fatalf("%s was written twice", id)
		}
		seen[id] = true
	}
	if len(seen) != n {
		t.Errorf("the two files hold %d records, %d were appended", len(seen), n)
	}
}

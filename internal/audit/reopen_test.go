package audit

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// An open of the log that failed (its folder could not be made: a full
// disk refuses a new file alike) is tried again at the next record: the
// log is written once it can be, rather than failing every record after.
func TestAppendAfterAFailedOpenOpensAgain(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "state")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	l := Open(Path(blocker))
	defer l.Close()
	if err := l.Append(&Record{Time: time.Now(), Tool: "first", Outcome: OutcomeOK}); err == nil {
		t.Fatal("a record with no folder to hold the log was written")
	}
	os.Remove(blocker)
	if err := l.Append(&Record{Time: time.Now(), Tool: "second", Outcome: OutcomeOK}); err != nil {
		t.Fatalf("the log stays unwritable once its folder can be made: %v", err)
	}
	recs, err := Read(Path(blocker), Query{})
	if err != nil || len(recs) != 1 || recs[0].Tool != "second" {
		t.Fatalf("read %+v, %v; want the second record", recs, err)
	}
	l.Close()
	if err := l.Append(&Record{Time: time.Now(), Tool: "third", Outcome: OutcomeOK}); err == nil {
		t.Fatal("a closed log took a record")
	}
}

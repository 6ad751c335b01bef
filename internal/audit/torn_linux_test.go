package audit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/testfs"
)

// A strict JSON-lines reader (jq, the owner's scripts) sees every record
// on a line of its own after a write the full disk stopped partway: the
// first record once there is room again begins a new line instead of
// finishing the fragment's, where juju audit lost it too.
func TestAppendAfterAShortWriteStartsALine(t *testing.T) {
	dir := testfs.SmallDisk(t, "64k")
	path, filler := filepath.Join(dir, FileName), filepath.Join(dir, "filler")
	l := Open(path)
	defer l.Close()
	rec := func(id string) *Record {
		return &Record{Time: time.Now().UTC(), CallID: id, Tool: "read_file", Args: `{path: "a.txt"}`, Outcome: OutcomeOK}
	}
	if err := l.Append(rec("first")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{4096, 1} {
		for buf := make([]byte, n); ; {
			if _, err := f.Write(buf); err != nil {
				break
			}
		}
	}
	f.Close()
	failed := false
	for i := 0; i < 1000 && !failed; i++ {
		failed = l.Append(rec(fmt.Sprint("full-", i))) != nil
	}
	if !failed {
		t.Fatal("the log never filled the disk")
	}
	os.Remove(filler)
	if err := l.Append(rec("after")); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var last Record
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.CallID != "after" {
		t.Fatalf("the record appended once there was room is not a line of its own: %q (%v)", lines[len(lines)-1], err)
	}
	got, err := Read(path, Query{})
	if err != nil || len(got) == 0 || got[len(got)-1].CallID != "after" {
		t.Fatalf("juju audit's reader lost the record appended once there was room: %v", err)
	}
}

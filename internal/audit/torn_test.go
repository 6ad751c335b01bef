package audit

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// A record cut short (a disk that filled mid-write, a process killed in
// its write) is followed on the same line by whatever the next append
// writes, in this process or another. The complete record after the
// fragment is read; only the fragment is lost.
func TestRecordAfterATornOneIsRead(t *testing.T) {
	path := Path(t.TempDir())
	t0 := time.Date(2026, 1, 2, 15, 0, 0, 0, time.UTC)
	var whole [3][]byte
	for i := range whole {
		b, err := appendRecord(nil, &Record{Time: t0.Add(time.Duration(i) * time.Second), CallID: fmt.Sprint("c", i), Tool: "read_file", Args: `{path: "a.txt"}`, Outcome: OutcomeOK})
		if err != nil {
			t.Fatal(err)
		}
		whole[i] = b
	}
	var data []byte
	data = append(append(data, whole[0]...), '\n')
	data = append(data, whole[1][:len(whole[1])/2]...) // torn: no end, no newline
	data = append(append(data, whole[2]...), '\n')
	data = append(data, whole[1][:20]...) // torn at the end of the file
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path, Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].CallID != "c0" || got[1].CallID != "c2" {
		t.Fatalf("read %+v, want the records c0 and c2", got)
	}
}

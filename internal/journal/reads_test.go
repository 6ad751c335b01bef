package journal

import (
	"context"
	"hash/maphash"
	"os"
	"path/filepath"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// sawAs records a read of path, whole, by the session of by, as the fs
// host functions do.
func (f *fixture) sawAs(l *ReadLog, by Author, path string) {
	f.t.Helper()
	r, e := f.pol.Resolve(path)
	if e != nil {
		f.t.Fatal(e)
	}
	full := filepath.Join(f.root, path)
	data, err := os.ReadFile(full)
	if err != nil {
		f.t.Fatal(err)
	}
	fi, err := os.Lstat(full)
	if err != nil {
		f.t.Fatal(err)
	}
	l.SawContent(Reader(by.Client, by.Principal, by.Session), r, fi, maphash.Bytes(l.Seed(), data), true)
}

// applyAs writes content to path as by, and waits for the work after the
// answer.
func (f *fixture) applyAs(by Author, path, content string) *abi.Error {
	f.t.Helper()
	req, body := request(false, []wop{write(path, content)})
	defer f.j.Wait()
	_, e := f.j.Apply(context.Background(), by, req, body)
	return e
}

// Two sessions of one client (two conversations of one connector: one
// name, one principal) each read a file; the second writes it. The
// first's view is stale: its write is FILE_CHANGED, not a write over the
// second's that loses it, as when the two were two clients.
func TestReadViewIsPerSession(t *testing.T) {
	l := NewReadLog()
	f := newFixture(t, map[string]string{"f.txt": "original\n"}, WithReadLog(l))
	s1 := Author{Client: "chatgpt", Principal: "oauth:c_1", Plugin: "core", Tool: "write_file", Session: "s1"}
	s2 := s1
	s2.Session = "s2"
	f.sawAs(l, s1, "f.txt")
	f.sawAs(l, s2, "f.txt")
	if e := f.applyAs(s2, "f.txt", "from the second conversation, longer\n"); e != nil {
		t.Fatalf("the second session's write: %v", e)
	}
	e := f.applyAs(s1, "f.txt", "from the first\n")
	wantCode(t, e, abi.FileChanged)
	if got := f.read("f.txt"); got != "from the second conversation, longer\n" {
		t.Fatalf("f.txt holds %q, want the second session's write", got)
	}

	// The second session's next write needs no new read: it knows what it
	// wrote. The end of the second session leaves the first's view.
	if e := f.applyAs(s2, "f.txt", "again\n"); e != nil {
		t.Fatalf("the second session's next write: %v", e)
	}
	l.Forget("s2")
	wantCode(t, f.applyAs(s1, "f.txt", "from the first\n"), abi.FileChanged)
	// The first's ended: its stale view goes with it.
	l.Forget("s1")
	if e := f.applyAs(s1, "f.txt", "from a new view\n"); e != nil {
		t.Fatalf("a write with no read on record: %v", e)
	}
}

// Forget drops the reads of one session, not those of a session whose id
// it starts.
func TestReadLogForget(t *testing.T) {
	l := NewReadLog()
	f := newFixture(t, map[string]string{"f.txt": "x\n"}, WithReadLog(l))
	a := Author{Client: "c", Session: "s"}
	b := Author{Client: "c", Session: "s1"}
	f.sawAs(l, a, "f.txt")
	f.sawAs(l, b, "f.txt")
	l.Forget("s")
	if len(l.m) != 1 {
		t.Fatalf("%d reads kept after forgetting one of two sessions, want 1", len(l.m))
	}
}

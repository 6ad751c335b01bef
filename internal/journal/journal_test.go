package journal

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/jujutools/juju/sdk/abi"
)

func TestWriteEditRollback(t *testing.T) {
	f := newFixture(t, map[string]string{"a.txt": "one\ntwo\n"})
	r1 := f.mustApply(edit("a.txt", "two", "TWO"))
	if f.read("a.txt") != "one\nTWO\n" {
		t.Fatalf("after edit: %q", f.read("a.txt"))
	}
	if r1.ChangeID == "" || len(r1.Files) != 1 || r1.Files[0].Action != abi.ActionModified || r1.Files[0].Replacements != 1 {
		t.Fatalf("result: %+v", r1)
	}
	if !strings.Contains(r1.Diff, "-two\n+TWO\n") {
		t.Fatalf("diff: %s", r1.Diff)
	}
	r2 := f.mustApply(write("new/dir/b.txt", "hello"))
	if f.read("new/dir/b.txt") != "hello" {
		t.Fatal("b.txt not written")
	}
	if len(r2.Files) != 3 {
		t.Fatalf("want 2 folders and a file, got %+v", r2.Files)
	}
	// Roll back the write: the file and its new folders go.
	if _, err := f.j.Rollback(context.Background(), who, r2.ChangeID, false); err != nil {
		t.Fatal(err)
	}
	f.missing("new")
	// Roll back the edit.
	rb, err := f.j.Rollback(context.Background(), who, r1.ChangeID, false)
	if err != nil {
		t.Fatal(err)
	}
	if f.read("a.txt") != "one\ntwo\n" {
		t.Fatalf("after rollback: %q", f.read("a.txt"))
	}
	if len(rb.RolledBack) != 1 || rb.RolledBack[0] != r1.ChangeID {
		t.Fatalf("rolled back: %v", rb.RolledBack)
	}
	// A second rollback of the same change is refused.
	_, err = f.j.Rollback(context.Background(), who, r1.ChangeID, false)
	wantCode(t, err.(*abi.Error), abi.Conflict)
	changes, err := f.j.Changes(time.Time{})
	if err != nil || len(changes) != 4 {
		t.Fatalf("changes: %v %v", changes, err)
	}
	if !changes[0].RolledBack || changes[0].RolledBackBy != rb.ChangeID || changes[0].CallID != "a1" || changes[0].Client != "test-client" {
		t.Fatalf("summary: %+v", changes[0])
	}
	noTemps(t, f.root)
}

func TestRollbackSinceTheFirstChange(t *testing.T) {
	f := newFixture(t, map[string]string{"a.txt": "a\n"})
	f.mustApply(write("a.txt", "b\n"))
	f.mustApply(write("c.txt", "c\n"))
	res, err := f.j.RollbackAfter(context.Background(), who, "c0", false)
	if err != nil || len(res.RolledBack) != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	if f.read("a.txt") != "a\n" {
		t.Fatal("a.txt")
	}
	f.missing("c.txt")
	if _, err := f.j.RollbackAfter(context.Background(), who, "c999", false); err == nil {
		t.Fatal("nothing after c999, yet it succeeded")
	}
}

// Open touches nothing: the folder and the database come with the first
// change.
func TestOpenTouchesNothing(t *testing.T) {
	f := newFixture(t, nil)
	state := filepath.Join(t.TempDir(), "state")
	j, err := Open(state, f.pol)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Fatalf("Open made the state folder: %v", err)
	}
	if err := j.Recover(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(j.Path()); err != nil {
		t.Fatalf("Recover did not make the database: %v", err)
	}
}

// Recover with nothing pending leaves the database as it is: juju calls it
// at every start, and an empty transaction is still a commit, a new meta
// page and two syncs of the file.
func TestRecoverWithNothingPendingWritesNothing(t *testing.T) {
	f := newFixture(t, map[string]string{"a.txt": "a\n"})
	f.mustApply(write("a.txt", "b\n"))
	before, err := os.ReadFile(f.j.Path())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.j.Recover(); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(f.j.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatal("Recover rewrote the journal although nothing was pending")
	}
}

// TestChangesFollowEachOtherWithoutWaiting: a change's done mark is
// written after its answer. Changes made back to back, from several
// goroutines, with reads between them, each see every change answered
// before them, and every one is done in the end.
func TestChangesFollowEachOtherWithoutWaiting(t *testing.T) {
	f := newFixture(t, map[string]string{"a.txt": "0\n"})
	var wg sync.WaitGroup
	ids := make(chan string, 40)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				req, body := request(false, []wop{write(fmt.Sprintf("g%d.txt", g), fmt.Sprintf("%d\n", i))})
				res, e := f.j.Apply(context.Background(), who, req, body)
				if e != nil {
					t.Error(e)
					return
				}
				ids <- res.ChangeID
				// Read at once: the change just answered is listed.
				c, err := f.j.Change(res.ChangeID)
				if err != nil || c == nil {
					t.Errorf("change %s just answered: %v, %v", res.ChangeID, c, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(ids)
	f.j.Wait()
	changes, err := f.j.Changes(time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, c := range changes {
		listed[c.ID] = true
	}
	n := 0
	for id := range ids {
		n++
		if !listed[id] {
			t.Errorf("change %s answered but not listed", id)
		}
	}
	if n != 40 || len(changes) != 40 {
		t.Fatalf("%d changes answered, %d listed", n, len(changes))
	}
	pending := 0
	if err := f.j.view(func(tx *bolt.Tx) error {
		pending = tx.Bucket(bucketPending).Stats().KeyN
		return nil
	}); err != nil || pending != 0 {
		t.Fatalf("%d changes still pending (%v)", pending, err)
	}
}

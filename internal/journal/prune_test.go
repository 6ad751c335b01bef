package journal

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/jujutools/juju/sdk/abi"
)

// clock is a settable time for the journal's records.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func withClock(c *clock) Option { return func(o *options) { o.now = c.now } }

func withCompactMin(n int64) Option { return func(o *options) { o.compactMin = n } }

func blobCount(t *testing.T, j *Journal) int {
	t.Helper()
	n := 0
	err := j.view(func(tx *bolt.Tx) error {
		n = tx.Bucket(bucketBlobs).Stats().KeyN
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Changes past the age limit go, with the pre-images only they refer to; a
// pre-image a kept change shares stays; a rollback of a pruned change, or
// back past one, says it was pruned.
func TestPruneByAge(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	f := newFixture(t, map[string]string{"a.txt": "v0\n", "b.txt": "shared\n"}, withClock(c),
		WithLimits(Limits{MaxAge: 48 * time.Hour}))
	ctx := context.Background()
	r1 := f.mustApply(write("a.txt", "v1\n")) // pre-image v0
	r2 := f.mustApply(write("b.txt", "x\n"))  // pre-image "shared"
	c.add(72 * time.Hour)
	f.mustApply(write("b.txt", "shared\n"))  // pre-image x
	r4 := f.mustApply(write("b.txt", "y\n")) // pre-image "shared" again: kept
	if n := blobCount(t, f.j); n != 3 {
		t.Fatalf("%d pre-images before the prune, want 3", n)
	}
	res, err := f.j.Prune()
	if err != nil {
		t.Fatal(err)
	}
	if res.Changes != 2 || res.First != r1.ChangeID || res.Last != r2.ChangeID || res.PreImages != 1 {
		t.Fatalf("prune: %+v", res)
	}
	if n := blobCount(t, f.j); n != 2 {
		t.Fatalf("%d pre-images after the prune, want 2 (x and the shared one)", n)
	}
	st, err := f.j.Stats()
	if err != nil || st.Changes != 2 || st.PrunedThrough != r2.ChangeID || st.OldestID == "" || st.Bytes == 0 {
		t.Fatalf("stats: %+v %v", st, err)
	}
	// The kept changes still roll back, the shared pre-image with them.
	if _, err := f.j.Rollback(ctx, who, r4.ChangeID, false); err != nil {
		t.Fatal(err)
	}
	if f.read("b.txt") != "shared\n" {
		t.Fatalf("b.txt: %q", f.read("b.txt"))
	}
	_, err = f.j.Rollback(ctx, who, r1.ChangeID, false)
	msg := wantCode(t, err.(*abi.Error), abi.NotFound)
	if !strings.Contains(msg, "was pruned") || !strings.Contains(msg, "2 days") {
		t.Fatalf("rollback of a pruned change: %s", msg)
	}
	_, err = f.j.RollbackAfter(ctx, who, r1.ChangeID, false)
	msg = wantCode(t, err.(*abi.Error), abi.NotFound)
	if !strings.Contains(msg, "earliest point left is after "+r2.ChangeID) {
		t.Fatalf("rollback after a pruned change: %s", msg)
	}
	// After the newest pruned one is still a point to go back to.
	if _, err := f.j.RollbackAfter(ctx, who, r2.ChangeID, true); err != nil {
		t.Fatal(err)
	}
	_, e := f.j.History(&abi.HistoryRequest{ChangeID: r1.ChangeID})
	wantCode(t, e, abi.NotFound)
	if _, err := f.j.Change(r1.ChangeID); err == nil || !strings.Contains(err.Error(), "pruned") {
		t.Fatalf("Change of a pruned id: %v", err)
	}
	// Nothing more is due.
	if res, err := f.j.PruneIfDue(); err != nil || res != nil {
		t.Fatalf("PruneIfDue: %+v %v", res, err)
	}
}

// Over the size limit the oldest changes go until the rest fits; the
// newest change stays whatever its size, and a prune that freed most of
// the file compacts it.
func TestPruneBySizeCompacts(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 64<<10) // 1 MiB
	f := newFixture(t, map[string]string{"a.bin": big}, WithLimits(Limits{MaxSize: 3 << 20}), withCompactMin(64<<10))
	var ids []string
	for i := range 6 {
		content := strings.Repeat(string(rune('a'+i)), 1<<20)
		ids = append(ids, f.mustApply(write("a.bin", content)).ChangeID)
	}
	before := fileSize(f.j.Path())
	res, err := f.j.Prune()
	if err != nil {
		t.Fatal(err)
	}
	if res.Changes != 4 || res.Last != ids[3] || !res.Compacted {
		t.Fatalf("prune: %+v", res)
	}
	if res.Kept.Bytes > 3<<20 || res.Kept.Changes != 2 {
		t.Fatalf("kept: %+v", res.Kept)
	}
	if after := fileSize(f.j.Path()); after >= before || after != res.Kept.FileBytes {
		t.Fatalf("file %d bytes before, %d after (%d reported)", before, after, res.Kept.FileBytes)
	}
	if _, err := os.Stat(f.j.Path() + compactSuffix); !os.IsNotExist(err) {
		t.Fatalf("the compaction's temporary file is left: %v", err)
	}
	// The compacted journal works: its changes roll back.
	if _, err := f.j.Rollback(context.Background(), who, ids[5], false); err != nil {
		t.Fatal(err)
	}
	if f.read("a.bin") != strings.Repeat("e", 1<<20) {
		t.Fatal("rollback after compaction restored the wrong content")
	}
	// One change larger than the limit is kept.
	g := newFixture(t, map[string]string{"a.bin": big}, WithLimits(Limits{MaxSize: 1 << 10}))
	id := g.mustApply(write("a.bin", "small")).ChangeID
	if res, err := g.j.Prune(); err != nil || res.Changes != 0 || res.Kept.OldestID != id {
		t.Fatalf("prune of one large change: %+v %v", res, err)
	}
}

// A process that opened the database before a compaction replaced the
// file, and waited for its lock, works on the new file.
func TestOpenAfterCompactionSeesNewFile(t *testing.T) {
	f := newFixture(t, map[string]string{"a.txt": "x"})
	f.mustApply(write("a.txt", "y"))
	db, err := f.j.openDB(true)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Open(f.state, f.pol)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { // waits for db's lock on the old file
		_, e := other.Apply(context.Background(), who, &abi.ChangeRequest{Ops: []abi.ChangeOp{{Op: abi.OpWrite, Path: "a.txt", Length: 1}}}, []byte("z"))
		if e != nil {
			done <- e
			return
		}
		done <- nil
	}()
	time.Sleep(100 * time.Millisecond)
	if err := compact(db, f.j.Path()); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	changes, err := f.j.Changes(time.Time{})
	if err != nil || len(changes) != 2 {
		t.Fatalf("the change made while compacting is lost: %v %v", changes, err)
	}
}

// A server's journal prunes itself after a change that leaves it over the
// size limit.
func TestAutoPruneAfterCommit(t *testing.T) {
	f := newFixture(t, map[string]string{"a.bin": "x"}, WithLimits(Limits{MaxSize: 2 << 20}), WithAutoPrune())
	for i := range 4 {
		f.mustApply(write("a.bin", strings.Repeat(string(rune('a'+i)), 1<<20)))
	}
	f.j.Wait()
	st, err := f.j.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.PrunedThrough == "" {
		t.Fatalf("no prune ran: %+v", st)
	}
}

func TestLimitsString(t *testing.T) {
	for l, want := range map[Limits]string{
		DefaultLimits:                "the changes of the last 30 days, up to 256 MiB",
		{MaxAge: 36 * time.Hour}:     "the changes of the last 36h0m0s",
		{MaxSize: 1 << 20}:           "up to 1 MiB of changes",
		{}:                           "every change",
		{MaxAge: 24 * time.Hour * 2}: "the changes of the last 2 days",
	} {
		if got := l.String(); got != want {
			t.Errorf("%+v: %q, want %q", l, got, want)
		}
	}
}

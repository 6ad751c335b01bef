//go:build unix

package journal

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// Recovery hashes a file as it reads it and keeps none of it: a file of
// 128 MiB written at a pending change's path after the crash (a build
// output, say) took 268 MiB of memory to settle, and one of many GiB
// stopped every start of juju.
func TestRecoveryStreamsLargeFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a writer")
	}
	const size = 128 << 20
	root := filepathClean(newFixture(t, crashFiles).root)
	state := filepath.Join(t.TempDir(), "state")
	if err := runHelper(t, "points", root, state, "intent").Run(); !killedBySIGKILL(err) {
		t.Fatalf("the writer was not killed: %v", err)
	}
	big := filepath.Join(root, "a.txt")
	if err := os.Truncate(big, size); err != nil { // sparse: no disk, all of it read
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f := reopen(t, root, state)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Fatalf("recovery allocated %d MiB to settle a change beside a file of %d MiB", alloc>>20, size>>20)
	}
	if fi, err := os.Stat(big); err != nil || fi.Size() != size {
		t.Fatalf("the large file, someone's later work, was not left as it is: %v %v", fi, err)
	}
	// Killed before any write, the change is undone: no record, the other
	// paths old.
	if ch, err := f.j.Changes(time.Time{}); err != nil || len(ch) != 0 {
		t.Fatalf("changes recorded: %v %v", ch, err)
	}
	if got := f.read("b.txt"); got != crashFiles["b.txt"] {
		t.Fatalf("b.txt holds %q after recovery", got)
	}
}

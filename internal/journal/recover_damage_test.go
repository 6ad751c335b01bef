//go:build unix

package journal

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestRecoveryChecksPreImages: a writer killed halfway through a change
// leaves it pending, and the old content recovery would put back is
// damaged in the journal's file since (bytes overwritten in place, which
// bbolt does not notice). Recovery never writes it: the path is left as
// it is, as one whose old content is missing, and the paths after it are
// put back. It wrote the damaged bytes over a.txt as its "old" content.
func TestRecoveryChecksPreImages(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a writer")
	}
	// Killed at the first step after which a.txt holds its new content
	// and the change is not whole yet.
	var root, state string
	for i := 0; ; i++ {
		if i > 20 {
			t.Fatal("no step of the change replaces a.txt before its last")
		}
		root = filepathClean(newFixture(t, crashFiles).root)
		state = filepath.Join(t.TempDir(), "state")
		if err := runHelper(t, "points", root, state, fmt.Sprintf("rename:%d", i)).Run(); !killedBySIGKILL(err) {
			t.Fatalf("the writer was not killed: %v", err)
		}
		if a, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(a) == "a gen 1\n" {
			break
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "b.txt")); string(b) != "b old\n" {
		t.Fatalf("b.txt was replaced before a.txt: %q", b)
	}
	db := filepath.Join(state, FileName)
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(b, []byte("a old\n")) != 1 {
		t.Fatalf("a.txt's old content is in the journal %d times, want once", bytes.Count(b, []byte("a old\n")))
	}
	if err := os.WriteFile(db, bytes.Replace(b, []byte("a old\n"), []byte("a BAD\n"), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	reopen(t, root, state)
	got, err := os.ReadFile(filepath.Join(root, "a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "a gen 1\n" {
		t.Fatalf("recovery wrote %q over a.txt, want it left as the writer left it", got)
	}
	if _, err := os.Lstat(filepath.Join(root, "new")); !os.IsNotExist(err) {
		t.Fatalf("the folder the change made before a.txt was not removed: %v", err)
	}
	noTemps(t, root)
}

package approval

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// The epoch starts Unchanged, never "", and every Bump changes it, as another process
// on the same folder sees it; a store whose Bump failed matches nothing.
func TestEpoch(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "approvals")
	a, b := Open(dir, Options{}), Open(dir, Options{}) // two processes
	if e := a.Epoch(); e != Unchanged {
		t.Fatalf("the first epoch is %q, want %q", e, Unchanged)
	}
	seen := map[string]bool{"": true, Unchanged: true}
	for range 20 {
		if err := a.Bump(); err != nil {
			t.Fatal(err)
		}
		e := b.Epoch()
		if seen[e] {
			t.Fatalf("a bump left the epoch at %q, seen before", e)
		}
		seen[e] = true
		if a.Epoch() != e {
			t.Fatal("two stores on one folder read different epochs")
		}
	}
	if _, err := a.List(); err != nil {
		t.Fatalf("the epoch's file upsets the list: %v", err)
	}

	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	broken := Open(filepath.Join(file, "approvals"), Options{})
	if err := broken.Bump(); err == nil {
		t.Fatal("a bump under a file succeeded")
	}
	if broken.Epoch() == broken.Epoch() {
		t.Error("after a failed bump the epoch stays the same: an approval would run after a change juju could not note")
	}
}

// Stale spends an approved approval without running it: it shows as used
// and stale, matches no retry, and is spent once.
func TestStale(t *testing.T) {
	s, _ := newStore(t)
	req := request()
	req.Epoch = "e1"
	r, err := s.Create(req, requestArgs)
	if err != nil {
		t.Fatal(err)
	}
	s.Decide(r.ID, true, "cli")
	if got, _ := s.Get(r.ID); got.Epoch != "e1" {
		t.Fatalf("the epoch asked in is %q, want e1", got.Epoch)
	}
	if err := s.Stale(r.ID); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Get(r.ID)
	if got.State != Used || !got.Stale {
		t.Fatalf("after Stale: %s stale=%v, want used and stale", got.State, got.Stale)
	}
	if _, ok := s.Match(r.Principal, r.Client, r.Tool, r.ArgsHash, ""); ok {
		t.Error("a stale approval matches a retry")
	}
	if err := s.Use(r.ID); !errors.Is(err, ErrUsed) {
		t.Errorf("using a stale approval: %v, want ErrUsed", err)
	}
}

// A bump is paid twice by every call of tier E or X.
func BenchmarkBump(b *testing.B) {
	s := Open(filepath.Join(b.TempDir(), "approvals"), Options{})
	for b.Loop() {
		s.Bump()
	}
}

// The epoch of a workspace takes in the changes made through every
// workspace whose roots overlap its own (one inside the other, or the
// same), in either direction, and through none other: those have a state
// folder, and an epoch, of their own over the same files.
func TestEpochOfOverlappingWorkspaces(t *testing.T) {
	state := t.TempDir()
	open := func(name string, roots ...string) *Store {
		return Open(Dir(filepath.Join(state, name)), Options{Roots: roots})
	}
	proj := open("proj", "/home/o/proj")
	sub := open("sub", "/home/o/proj/sub")
	other := open("other", "/home/o/other", "/home/o/projects")
	for _, s := range []*Store{proj, sub, other} {
		if err := s.Bump(); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name          string
		bumped, moved *Store
		moves         bool
	}{
		{"inside moves the outer", sub, proj, true},
		{"outer moves the inside", proj, sub, true},
		{"a sibling whose name shares a prefix leaves it", other, proj, false},
		{"a sibling leaves the inside", other, sub, false},
		{"nor is it moved", proj, other, false},
	} {
		before := c.moved.Epoch()
		if c.moved.Epoch() != before {
			t.Fatalf("%s: the epoch changes with nothing bumped", c.name)
		}
		if err := c.bumped.Bump(); err != nil {
			t.Fatal(err)
		}
		if moved := c.moved.Epoch() != before; moved != c.moves {
			t.Errorf("%s: the epoch moved %v, want %v", c.name, moved, c.moves)
		}
	}
}

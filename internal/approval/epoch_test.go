package approval

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// The epoch starts empty and every Bump changes it, as another process
// on the same folder sees it; a store whose Bump failed matches nothing.
func TestEpoch(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "approvals")
	a, b := Open(dir, Options{}), Open(dir, Options{}) // two processes
	if e := a.Epoch(); e != "" {
		t.Fatalf("the first epoch is %q, want empty", e)
	}
	seen := map[string]bool{"": true}
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
	if _, ok := s.Match(r.Principal, r.Client, r.Tool, r.ArgsHash); ok {
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

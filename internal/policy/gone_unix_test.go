//go:build unix

package policy

import (
	"os"
	"testing"
)

// Gone names a root whose folder was deleted since the policy opened it,
// even when a folder stands at its path again, and no root before that.
func TestGoneNamesADeletedRoot(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	p, err := New(Config{Roots: []string{a, b}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if r := p.Gone(); r != nil {
		t.Fatalf("Gone() = %q before anything was deleted", r.Path)
	}
	if err := os.RemoveAll(b); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(b, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := p.Gone(); r == nil || r.Path != b {
		t.Fatalf("Gone() = %v, want the root %q made again", r, b)
	}
}

//go:build unix

package policy

import (
	"os"
	"path/filepath"
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
	if r, _ := p.Gone(); r != nil {
		t.Fatalf("Gone() = %q before anything was deleted", r.Path)
	}
	if err := os.RemoveAll(b); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(b, 0o755); err != nil {
		t.Fatal(err)
	}
	if r, moved := p.Gone(); r == nil || r.Path != b || moved {
		t.Fatalf("Gone() = %v, %v, want the root %q made again, deleted", r, moved, b)
	}
}

// Gone names a root whose folder was moved away from its path, whether
// another folder stands there now or none, and not one whose path leads
// to the same folder through a link.
func TestGoneNamesAMovedRoot(t *testing.T) {
	for _, c := range []struct {
		name  string
		after func(root, away string) error
		moved bool
	}{
		{"another folder at its path", func(root, away string) error { return os.Mkdir(root, 0o755) }, true},
		{"nothing at its path", func(root, away string) error { return nil }, true},
		{"a link to it at its path", func(root, away string) error { return os.Symlink(away, root) }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			root, away := filepath.Join(dir, "ws"), filepath.Join(dir, "ws.old")
			if err := os.Mkdir(root, 0o755); err != nil {
				t.Fatal(err)
			}
			p, err := New(Config{Roots: []string{root}})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if err := os.Rename(root, away); err != nil {
				t.Fatal(err)
			}
			if err := c.after(root, away); err != nil {
				t.Fatal(err)
			}
			r, moved := p.Gone()
			if got := r != nil && moved; got != c.moved || r != nil && !moved {
				t.Fatalf("Gone() = %v, %v, want moved %v", r, moved, c.moved)
			}
		})
	}
}

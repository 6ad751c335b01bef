//go:build unix

package fs

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/policy"
)

// TestOpenRegularRefusesASwappedFIFO checks the open of the portable walk
// and of .gitignore files: a FIFO put where Lstat saw a regular file is
// refused, and its open does not wait for a writer that never comes.
func TestOpenRegularRefusesASwappedFIFO(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	must(t, err)
	defer root.Close()
	must(t, writeFile(dir, ".gitignore", "*.log\n"))
	want, err := root.Lstat(".gitignore")
	must(t, err)
	f, err := openRegular(root, ".gitignore", want)
	must(t, err)
	f.Close()

	must(t, writeFile(dir, "other", "x"))
	other, err := root.Lstat("other")
	must(t, err)
	if _, err := openRegular(root, ".gitignore", other); !errors.Is(err, errNotRegular) {
		t.Fatalf("another file than Lstat's: %v, want errNotRegular", err)
	}

	must(t, os.Remove(filepath.Join(dir, ".gitignore")))
	must(t, syscall.Mkfifo(filepath.Join(dir, ".gitignore"), 0o644))
	done := make(chan error, 1)
	go func() {
		f, err := openRegular(root, ".gitignore", want)
		if f != nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, errNotRegular) {
			t.Fatalf("a FIFO swapped in: %v, want errNotRegular", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the open of a FIFO swapped in blocked")
	}
	if ig := readIgnoreFile(&policy.Root{OS: root, Real: dir}, ".gitignore", "."); ig != nil {
		t.Fatal("a FIFO was read as a .gitignore")
	}
}

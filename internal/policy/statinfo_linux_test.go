//go:build linux

package policy

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestStatInfoIsOs checks that the FileInfo of a descriptor's stat says
// what os says of the same file, for every kind of file, and that
// SameFile matches it with os's.
func TestStatInfoIsOs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	mustDo(t, os.WriteFile(file, []byte("hello"), 0o640))
	special := filepath.Join(dir, "special")
	mustDo(t, os.WriteFile(special, nil, 0o755))
	mustDo(t, os.Chmod(special, 0o755|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
	mustDo(t, os.Symlink("file", filepath.Join(dir, "link")))
	mustDo(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600))
	mustDo(t, os.Mkdir(filepath.Join(dir, "sub"), 0o711))
	for _, name := range []string{"file", "special", "link", "fifo", "sub", "/dev/null"} {
		full := name
		if !filepath.IsAbs(name) {
			full = filepath.Join(dir, name)
		}
		fd, err := syscall.Open(full, oPath|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		mustDo(t, err)
		got, err := fstatInfo(fd, full)
		syscall.Close(fd)
		mustDo(t, err)
		want, err := os.Lstat(full)
		mustDo(t, err)
		if got.Name() != want.Name() || got.Size() != want.Size() || got.Mode() != want.Mode() ||
			!got.ModTime().Equal(want.ModTime()) || got.IsDir() != want.IsDir() {
			t.Errorf("%s: %s %d %v %v %v, os says %s %d %v %v %v", name,
				got.Name(), got.Size(), got.Mode(), got.ModTime(), got.IsDir(),
				want.Name(), want.Size(), want.Mode(), want.ModTime(), want.IsDir())
		}
		if !SameFile(got, want) || !SameFile(want, got) || links(got) != links(want) {
			t.Errorf("%s: not the same file as os's, or not as many links", name)
		}
	}
	a, _ := os.Lstat(file)
	b, _ := os.Lstat(special)
	if SameFile(a, b) || SameFile(a, nil) || SameFile(nil, nil) {
		t.Error("SameFile matched different files, or nothing")
	}
}

// TestFdFileReadsAsOsFile checks that a descriptor read through fdFile
// reads as an *os.File does: whole reads, reads at offsets, the file's
// end, and a second close.
func TestFdFileReadsAsOsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	data := bytes.Repeat([]byte("0123456789"), 1000)
	mustDo(t, os.WriteFile(path, data, 0o644))
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	mustDo(t, err)
	f := &fdFile{fd: fd, name: "f"}
	osf, err := os.Open(path)
	mustDo(t, err)
	defer osf.Close()

	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadAll: %d bytes, %v", len(got), err)
	}
	if n, err := f.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Fatalf("Read at the end: %d, %v", n, err)
	}
	if n, err := f.Read(nil); n != 0 || err != nil {
		t.Fatalf("Read of nothing: %d, %v", n, err)
	}
	for _, c := range []struct {
		off  int64
		size int
	}{{0, 10}, {9995, 10}, {10000, 4}, {10005, 4}, {1, 9999}, {0, 0}, {-1, 4}} {
		b1, b2 := make([]byte, c.size), make([]byte, c.size)
		n1, err1 := f.ReadAt(b1, c.off)
		n2, err2 := osf.ReadAt(b2, c.off)
		if n1 != n2 || !bytes.Equal(b1, b2) || (err1 == nil) != (err2 == nil) || errors.Is(err1, io.EOF) != errors.Is(err2, io.EOF) {
			t.Errorf("ReadAt(%d bytes at %d) = %d, %v; os: %d, %v", c.size, c.off, n1, err1, n2, err2)
		}
	}
	mustDo(t, f.Close())
	if err := f.Close(); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("second Close: %v", err)
	}
}

// TestOpenReadNeedsNoOsFile checks that OpenRead reads a regular file
// through the policy's own descriptor on the fast path (the point of it),
// and through an *os.File without openat2.
func TestOpenReadNeedsNoOsFile(t *testing.T) {
	bothModes(t, func(t *testing.T) {
		f := newFixture(t)
		r, e := f.p.Resolve("sub/b.txt")
		if e != nil {
			t.Fatal(e)
		}
		file, fi, e := f.p.OpenRead(r)
		if e != nil {
			t.Fatal(e)
		}
		defer file.Close()
		_, isFd := file.(*fdFile)
		if fast := openat2Works.Load() != 2; isFd != fast {
			t.Errorf("read through an fdFile: %v, with openat2: %v", isFd, fast)
		}
		if fi.Size() != 1 || !fi.Mode().IsRegular() || fi.Name() != "b.txt" {
			t.Errorf("stat %s %d %v", fi.Name(), fi.Size(), fi.Mode())
		}
	})
}

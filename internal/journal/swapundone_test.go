//go:build unix

package journal

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// raceOpen makes openRoot swap the folder sub of dir for what swap puts
// there just before it opens, and put the folder back just after: a
// folder exchanged with a link and back (renameat2 RENAME_EXCHANGE in a
// loop), caught at the moment of the open and undone before anyone looks
// again.
func raceOpen(t *testing.T, dir string, swap func(sub string)) {
	t.Helper()
	real := openRoot
	t.Cleanup(func() { openRoot = real })
	openRoot = func(parent *os.Root, name string) (*os.Root, error) {
		sub := filepath.Join(dir, "sub")
		if name != "sub" {
			return real(parent, name)
		}
		if err := os.Rename(sub, sub+".real"); err != nil {
			t.Fatal(err)
		}
		swap(sub)
		defer func() {
			if err := os.RemoveAll(sub); err != nil {
				t.Error(err)
			}
			if err := os.Rename(sub+".real", sub); err != nil {
				t.Error(err)
			}
		}()
		return real(parent, name)
	}
}

// swaps are what a folder may be swapped for at the moment it is opened.
var swaps = []struct {
	name string
	swap func(t *testing.T, outside string) func(sub string)
}{
	{"a link leading out", func(t *testing.T, outside string) func(string) {
		return func(sub string) { must(t, os.Symlink(outside, sub)) }
	}},
	{"a link to itself", func(t *testing.T, _ string) func(string) {
		return func(sub string) { must(t, os.Symlink("sub", sub)) }
	}},
	{"a file", func(t *testing.T, _ string) func(string) {
		return func(sub string) { must(t, os.WriteFile(sub, []byte("x"), 0o644)) }
	}},
	{"nothing", func(*testing.T, string) func(string) {
		return func(string) {}
	}},
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A folder on a change's path swapped while openChild opens it is
// errSwapped, though the swap is undone before openChild looks again:
// os.Root's ELOOP (the link gone before it read it, or a loop), its
// refusal of a link leading out of the root, and ENOTDIR or ENOENT with
// a folder there again were INTERNAL ("openat rdir2: too many levels of
// symbolic links", "path escapes from parent").
func TestOpenChildSeesASwapUndone(t *testing.T) {
	for _, tc := range swaps {
		t.Run(tc.name, func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
			root, err := os.OpenRoot(dir)
			must(t, err)
			defer root.Close()
			raceOpen(t, dir, tc.swap(t, outside))
			sub, err := openChild(root, "sub")
			if err == nil {
				sub.Close()
				t.Fatal("a swapped folder was opened")
			}
			if !errors.Is(err, errSwapped) {
				t.Fatalf("error %v, want errSwapped", err)
			}
		})
	}
}

// What is not a swap keeps its own error: a folder that is missing or a
// file, and the system refusing the open (permission, resources), which
// said FILE_CHANGED would send the model to retry in vain.
func TestOpenChildKeepsOtherFailures(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "file"), []byte("x"), 0o644))
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	root, err := os.OpenRoot(dir)
	must(t, err)
	defer root.Close()
	if _, err := openChild(root, "missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing folder: %v, want ErrNotExist", err)
	}
	if _, err := openChild(root, "file"); err == nil || errors.Is(err, errSwapped) {
		t.Errorf("a file: %v, want os.Root's not a directory", err)
	}
	real := openRoot
	defer func() { openRoot = real }()
	for _, errno := range []syscall.Errno{syscall.EACCES, syscall.EMFILE, syscall.ENFILE, syscall.ENOMEM} {
		openRoot = func(_ *os.Root, name string) (*os.Root, error) {
			return nil, &fs.PathError{Op: "openat", Path: name, Err: errno}
		}
		if _, err := openChild(root, "sub"); !errors.Is(err, errno) || errors.Is(err, errSwapped) {
			t.Errorf("%v on a folder still there: %v", errno, err)
		}
	}
}

// Through a change the swap is FILE_CHANGED, nothing is written, and the
// folder and its files are as they were.
func TestChangeThroughASwapUndoneIsFileChanged(t *testing.T) {
	for _, tc := range swaps {
		t.Run(tc.name, func(t *testing.T) {
			outside := t.TempDir()
			f := newFixture(t, map[string]string{"sub/keep": "k\n"})
			raceOpen(t, f.root, tc.swap(t, outside))
			for _, op := range []wop{write("sub/new", "n\n"), {ChangeOp: abi.ChangeOp{Op: abi.OpDelete, Path: "sub/keep"}}} {
				_, e := f.apply(op)
				if e == nil || e.Code != abi.FileChanged {
					t.Fatalf("%s %s: %v, want FILE_CHANGED", op.Op, op.Path, e)
				}
			}
			if f.read("sub/keep") != "k\n" {
				t.Error("sub/keep changed")
			}
			f.missing("sub/new")
			if entries, _ := os.ReadDir(outside); len(entries) != 0 {
				t.Errorf("the folder outside holds %d entries", len(entries))
			}
		})
	}
}

// A link read when it is no longer one (swapped back for a folder between
// the look and the read) is errSwapped, not INTERNAL ("readlinkat rdir2:
// invalid argument").
func TestReadLinkOfANameNoLongerALink(t *testing.T) {
	dir := t.TempDir()
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	must(t, os.Symlink("sub", filepath.Join(dir, "link")))
	root, err := os.OpenRoot(dir)
	must(t, err)
	defer root.Close()
	if got, err := readLink(root, "link"); got != "sub" || err != nil {
		t.Fatalf("a link: %q, %v", got, err)
	}
	if _, err := readLink(root, "sub"); !errors.Is(err, errSwapped) {
		t.Fatalf("a folder: %v, want errSwapped", err)
	}
}

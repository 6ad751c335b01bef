//go:build linux

package search

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

// A process in the workspace that swaps a folder the walk listed for a
// link to .git (or exchanges the two folders) between the listing and the
// open must not make the search read .git/config under the listed name:
// the open follows no link, and a file that is not the one listed is
// closed unread. inotify on .git says what was opened and read there.
func TestNativeNeverReadsThroughASwappedFolder(t *testing.T) {
	for _, tc := range []struct {
		name string
		swap func(t *testing.T, root string)
		// opened: the swap leaves no link on the way, so the open may
		// happen; the read must not.
		opened bool
	}{
		{"link", func(t *testing.T, root string) {
			if err := os.Rename(filepath.Join(root, "src"), filepath.Join(root, "src.moved")); err != nil {
				t.Error(err)
			}
			if err := os.Symlink(".git", filepath.Join(root, "src")); err != nil {
				t.Error(err)
			}
		}, false},
		{"exchange", func(t *testing.T, root string) {
			if err := unix.Renameat2(unix.AT_FDCWD, filepath.Join(root, "src"), unix.AT_FDCWD, filepath.Join(root, ".git"), unix.RENAME_EXCHANGE); err != nil {
				t.Skip("no RENAME_EXCHANGE here:", err)
			}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := testfs.Workspace(t, map[string]string{
				"src/config":  "[core]\n",
				".git/config": "url = https://owner:needle-password@example.com/x\n",
			})
			p := newPolicy(t, root)
			in, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
			if err != nil {
				t.Skip("no inotify here:", err)
			}
			defer syscall.Close(in)
			// The watch follows the folder's inode wherever it is renamed.
			if _, err := syscall.InotifyAddWatch(in, filepath.Join(root, ".git"), syscall.IN_OPEN|syscall.IN_ACCESS); err != nil {
				t.Fatal(err)
			}
			var once sync.Once
			reached := false
			beforeOpen = func(rel string) {
				if rel == "src/config" {
					once.Do(func() {
						// What juju opened in .git before (its ignore
						// files) is not the search's doing.
						inotifyEvents(t, in)
						tc.swap(t, root)
						reached = true
					})
				}
			}
			defer func() { beforeOpen = nil }()

			res := call(t, p, noRG, abi.SearchRequest{Pattern: "needle"})
			if res.Engine != "juju" || len(res.Files) != 0 {
				t.Errorf("the search: %+v", res)
			}
			if !reached {
				t.Fatal("the search never reached the seam")
			}
			for _, ev := range inotifyEvents(t, in) {
				if ev.mask&syscall.IN_ACCESS != 0 || (!tc.opened && ev.mask&syscall.IN_OPEN != 0) {
					t.Errorf("the search %s %q in .git after the swap", map[bool]string{true: "read", false: "opened"}[ev.mask&syscall.IN_ACCESS != 0], ev.name)
				}
			}
		})
	}
}

type inotifyEvent struct {
	mask uint32
	name string
}

// inotifyEvents returns the events queued on in.
func inotifyEvents(t *testing.T, in int) []inotifyEvent {
	t.Helper()
	var out []inotifyEvent
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(in, buf)
		if err == syscall.EAGAIN || n <= 0 {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := buf[off+syscall.SizeofInotifyEvent : off+syscall.SizeofInotifyEvent+int(ev.Len)]
			for len(name) > 0 && name[len(name)-1] == 0 {
				name = name[:len(name)-1]
			}
			out = append(out, inotifyEvent{ev.Mask, string(name)})
			off += syscall.SizeofInotifyEvent + int(ev.Len)
		}
	}
}

package testfs

import (
	"syscall"
	"testing"
)

// SmallDisk returns an empty folder that is a file system of its own, a
// tmpfs of size (as mount writes it: "256k", "8m"), for a test of what a
// full disk does; it is unmounted when the test ends. The test is skipped
// where mounting is not allowed (not root).
func SmallDisk(t testing.TB, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a small file system here: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

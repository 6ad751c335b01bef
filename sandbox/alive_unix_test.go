//go:build unix

package sandbox

import (
	"os"
	"syscall"
	"testing"
)

// The helper's lifeline: open while juju holds the write end, at its end
// once juju is gone; either way the descriptor is closed for the command.
func TestServerAlive(t *testing.T) {
	dup := func(f *os.File) int {
		fd, err := syscall.Dup(int(f.Fd()))
		if err != nil {
			t.Fatal(err)
		}
		return fd
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fd := dup(r)
	if err := serverAlive(fd); err != nil {
		t.Fatalf("juju runs: %v", err)
	}
	if err := syscall.Fstat(fd, new(syscall.Stat_t)); err == nil {
		t.Error("the lifeline was left open for the command")
	}
	w.Close()
	if err := serverAlive(dup(r)); err == nil {
		t.Fatal("juju is gone, yet the helper would run the command")
	}
	if err := serverAlive(1 << 20); err == nil {
		t.Fatal("a descriptor that is not open passed")
	}
}

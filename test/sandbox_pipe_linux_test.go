package test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jujutools/juju/sandbox"
)

// A named pipe outside the roots takes no write from a confined command
// where the kernel has Landlock: a read-only mount refuses writes to
// files, folders and links, never to a pipe, so without Landlock whatever
// reads the pipe takes what the command writes (SECURITY.md says so).
func TestSandboxWritesNoPipeOutsideTheRoots(t *testing.T) {
	needSandbox(t)
	if _, err := sandbox.LandlockABI(); err != nil {
		t.Skipf("no Landlock here: %v", err)
	}
	fifo := filepath.Join(outside(t), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// Read and write, so that the command's open never waits for a reader.
	f, err := os.OpenFile(fifo, os.O_RDWR|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	root := workspace(t, map[string]string{"src/a.go": "package a\n"})
	s := start(t, root, "--mode", "trusted", "--sandbox", "require")
	got := runIn(t, s, "echo PWNED > "+fifo+" && echo wrote || echo refused")
	f.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	b := make([]byte, 64)
	n, _ := f.Read(b)
	if n > 0 || !strings.Contains(got, "refused") {
		t.Fatalf("a confined command wrote %q into a pipe outside the roots (%q)", b[:n], got)
	}
}

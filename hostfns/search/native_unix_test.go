//go:build unix

package search

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

// A FIFO where the walk saw a file (swapped in after it) is skipped at
// once: opening it must not wait for a writer.
func TestNativeSkipsFIFO(t *testing.T) {
	root := testfs.Workspace(t, map[string]string{"a.txt": "needle\n"})
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.txt"), 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	p := newPolicy(t, root)
	r, aerr := p.Resolve(".")
	if aerr != nil {
		t.Fatal(aerr)
	}
	pt, err := compilePattern(&abi.SearchRequest{Pattern: "needle"})
	if err != nil {
		t.Fatal(err)
	}
	n := &nominator{ctx: context.Background(), root: r.Root, pt: pt, w: nil, perFile: 1}
	listed, err := r.Root.OS.Lstat("a.txt") // the file the walk saw
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		var buf []byte
		done <- n.file("pipe.txt", listed, &buf)
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("searching a FIFO blocked")
	}
}

package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/jujutools/juju/sdk/abi"
)

// A folder flipped with a long chain of links while juju walks through it
// gives the file below (through the folder or the chain), NOT_FOUND or
// FILE_CHANGED: never INVALID_ARGUMENT's "too many symbolic links", which
// tells the model its path is wrong. The walk follows links itself, up to
// 40; the operating system, opening a name the walk saw as a folder,
// follows fewer (os.Root: 8), so its ELOOP means the name was replaced.
func TestFolderFlippedWithALinkChainIsChanged(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"d/e", "d/real"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, d, "f"), []byte("f\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// d/c0 → c1 → … → c11 → real: twelve links, within the walk's 40.
	for i := range 12 {
		target := fmt.Sprintf("c%d", i+1)
		if i == 11 {
			target = "real"
		}
		if err := os.Symlink(target, filepath.Join(root, "d", fmt.Sprintf("c%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	p, err := New(Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		e, chain := filepath.Join(root, "d", "e"), filepath.Join(root, "d", "c0")
		for !stop.Load() {
			unix.Renameat2(unix.AT_FDCWD, chain, unix.AT_FDCWD, e, unix.RENAME_EXCHANGE)
		}
	})
	defer func() { stop.Store(true); wg.Wait() }()

	codes := map[abi.Code]int{}
	reads := 0
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); {
		// Not the fast path's: the walk resolves it name by name.
		r, e := p.Resolve("d/./e/../e/f")
		if e == nil {
			var f Reader
			if f, _, e = p.OpenRead(r); e == nil {
				f.Close()
				reads++
				continue
			}
		}
		codes[e.Code]++
		if e.Code != abi.NotFound && e.Code != abi.FileChanged {
			t.Fatalf("%s: %s (after %v, %d reads)", e.Code, e.Message, codes, reads)
		}
	}
	t.Logf("%d reads, %v", reads, codes)
}

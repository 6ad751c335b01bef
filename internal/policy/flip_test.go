//go:build unix

package policy

import (
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// A name flipped between a file and a symlink while juju resolves and
// opens it gives the file, the link's target, NOT_FOUND or FILE_CHANGED:
// never INTERNAL (readlink of a name that stopped being a link answers
// EINVAL), and never other bytes.
func TestFlipRaceIsNeverInternal(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Error(err)
		}
	}
	write("g", "g\n")
	write("f", "f\n")
	p, err := New(Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		// Each state is renamed into place whole: f is always a complete
		// file or a link.
		f, file, link := filepath.Join(root, "f"), filepath.Join(root, "f.file"), filepath.Join(root, "f.link")
		for !stop.Load() {
			os.Symlink("g", link)
			os.Rename(link, f)
			os.WriteFile(file, []byte("f\n"), 0o644)
			os.Rename(file, f)
		}
	})
	defer func() { stop.Store(true); wg.Wait() }()

	codes := map[abi.Code]int{}
	reads := 0
	for end := time.Now().Add(time.Second); time.Now().Before(end); {
		r, e := p.Resolve("f")
		if e == nil {
			var f Reader
			if f, _, e = p.OpenRead(r); e == nil {
				b, err := io.ReadAll(f)
				f.Close()
				if err != nil || (string(b) != "f\n" && string(b) != "g\n") {
					t.Fatalf("read %q, %v", b, err)
				}
				reads++
				continue
			}
		}
		codes[e.Code]++
		if e.Code != abi.NotFound && e.Code != abi.FileChanged {
			t.Fatalf("%s: %s", e.Code, e.Message)
		}
	}
	if reads == 0 {
		t.Errorf("no read succeeded while the name flipped (%v)", codes)
	}
}

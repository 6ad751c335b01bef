package policy

import (
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSwapRace swaps a folder for a symlink (to outside, then to another
// folder inside the root) while readers resolve and open a file below it.
// No read may return outside content, and what is read must be what the
// resolved path names.
func TestSwapRace(t *testing.T) { bothModes(t, testSwapRace) }

func testSwapRace(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	mustDo(t, err)
	ws := filepath.Join(tmp, "ws")
	outside := filepath.Join(tmp, "outside")
	for name, body := range map[string]string{
		"ws/dir/file":   "inside",
		"ws/other/file": "other",
		"outside/file":  "OUTSIDE",
	} {
		full := filepath.Join(tmp, name)
		mustDo(t, os.MkdirAll(filepath.Dir(full), 0o755))
		mustDo(t, os.WriteFile(full, []byte(body), 0o644))
	}
	p, err := New(Config{Roots: []string{ws}})
	mustDo(t, err)
	defer p.Close()

	dir, saved := filepath.Join(ws, "dir"), filepath.Join(ws, "dir.saved")
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		targets := []string{outside, "../outside", "other"}
		for i := 0; !stop.Load(); i++ {
			if os.Rename(dir, saved) != nil {
				continue
			}
			_ = os.Symlink(targets[i%len(targets)], dir)
			time.Sleep(time.Duration(i%3) * time.Microsecond)
			_ = os.Remove(dir)
			_ = os.Rename(saved, dir)
		}
	}()

	var reads, refusals atomic.Int64
	deadline := time.Now().Add(700 * time.Millisecond)
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			paths := []string{"dir/file", filepath.Join(ws, "dir/file"), "dir/../dir/file"}
			for i := 0; time.Now().Before(deadline); i++ {
				r, e := p.Resolve(paths[i%len(paths)])
				if e != nil {
					refusals.Add(1)
					continue
				}
				f, e := openers[i%len(openers)].open(p, r)
				if e != nil {
					refusals.Add(1)
					continue
				}
				b, _ := io.ReadAll(f)
				f.Close()
				reads.Add(1)
				switch string(b) {
				case "OUTSIDE":
					t.Errorf("read outside content through %q (resolved %q)", paths[i%len(paths)], r.Rel)
				case "other":
					if r.Rel != "other/file" {
						t.Errorf("read other/file while resolved to %q", r.Rel)
					}
				case "inside":
					if r.Rel != "dir/file" {
						t.Errorf("read dir/file while resolved to %q", r.Rel)
					}
				}
			}
		}()
	}
	time.Sleep(time.Until(deadline))
	stop.Store(true)
	wg.Wait()
	t.Logf("%d reads, %d refusals", reads.Load(), refusals.Load())
	if reads.Load() == 0 {
		t.Fatal("no read ever succeeded")
	}
}

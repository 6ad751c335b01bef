package fs

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// TestSwapRace flips a folder between a real folder and a symlink to a
// folder outside the root while read, list and glob run. Nothing from
// outside may ever come back: no outside name, no outside content.
func TestSwapRace(t *testing.T) {
	f := newFixture(t, Options{})
	must(t, os.MkdirAll(filepath.Join(f.outside, "d"), 0o755))
	must(t, os.WriteFile(filepath.Join(f.outside, "d", "outside-only.txt"), []byte("OUTSIDE"), 0o644))
	dir := filepath.Join(f.ws, "flip")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "inside.txt"), []byte("inside"), 0o644))
	// The outside file is also reachable under the inside name, through a
	// link in the outside folder, to catch a read that follows the swap.
	must(t, os.Symlink("outside-only.txt", filepath.Join(f.outside, "d", "inside.txt")))
	saved := filepath.Join(f.ws, "flip.saved")

	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			if os.Rename(dir, saved) != nil {
				continue
			}
			target := filepath.Join(f.outside, "d")
			if i%2 == 1 {
				target = "../../outside/d"
			}
			_ = os.Symlink(target, dir)
			_ = os.Remove(dir)
			_ = os.Rename(saved, dir)
		}
	}()

	calls := []struct {
		name string
		req  any
	}{
		{abi.FnFSRead, abi.ReadRequest{Path: "flip/inside.txt"}},
		{abi.FnFSRead, abi.ReadRequest{Path: "flip/inside.txt", Line: 1}},
		{abi.FnFSStat, abi.StatRequest{Path: "flip/inside.txt", Hash: true}},
		{abi.FnFSList, abi.ListRequest{Path: "flip"}},
		{abi.FnFSGlob, abi.GlobRequest{Pattern: "**/outside-only.txt"}},
		{abi.FnFSGlob, abi.GlobRequest{Pattern: "*", Path: "flip"}},
	}
	deadline := time.Now().Add(700 * time.Millisecond)
	var ok atomic.Int64
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; time.Now().Before(deadline); i++ {
				c := calls[i%len(calls)]
				hdr, _ := json.Marshal(c.req)
				out, body := f.fns[c.name](context.Background(), hdr, nil)
				if bytes.Contains(body, []byte("OUTSIDE")) || bytes.Contains(out, []byte(f.outside)) || bytes.Contains(out, []byte("outside-only")) {
					t.Errorf("%s %s: outside data came back: %s %q", c.name, hdr, out, body)
				}
				var st abi.Status
				if json.Unmarshal(out, &st) == nil && st.Error == nil {
					ok.Add(1)
				}
			}
		}()
	}
	time.Sleep(time.Until(deadline))
	stop.Store(true)
	wg.Wait()
	if ok.Load() == 0 {
		t.Fatal("no call ever succeeded")
	}
}

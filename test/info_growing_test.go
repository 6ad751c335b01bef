package test

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestFileInfoHashesTheSizeItReports: file_info of a file appended to
// while it is hashed answers a size and a sha256 of the same bytes. It
// hashed to the file's end, past the size its stat said, so the hash
// matched no content of that size, and an edit conditional on it could
// never apply.
func TestFileInfoHashesTheSizeItReports(t *testing.T) {
	root := workspace(t, map[string]string{})
	name := filepath.Join(root, "grows.log")
	f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Long enough to take a while to hash, sparse so that it costs no disk.
	if err := f.Truncate(256 << 20); err != nil {
		t.Fatal(err)
	}
	s := start(t, root)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // appends all along the call, up to 16 MiB
		defer wg.Done()
		line := make([]byte, 4<<10)
		for i := range line {
			line[i] = 'x'
		}
		for range 4096 {
			select {
			case <-done:
				return
			default:
			}
			if _, err := f.Write(line); err != nil {
				t.Error(err)
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	time.Sleep(20 * time.Millisecond) // the writer is writing
	res := s.call("file_info", map[string]any{"path": "grows.log"})
	close(done)
	wg.Wait()
	if res.IsError {
		t.Fatal(text(res))
	}
	got := structured(t, res)
	size := int64(got["size"].(float64))
	r, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(r, size)); err != nil {
		t.Fatal(err)
	}
	if want := hex.EncodeToString(h.Sum(nil)); got["sha256"] != want {
		fi, _ := r.Stat()
		t.Fatalf("file_info says %d bytes with sha256 %v, but those bytes hash to %s (the file has %d now)", size, got["sha256"], want, fi.Size())
	}
}

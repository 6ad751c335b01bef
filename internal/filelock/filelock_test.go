//go:build unix

package filelock

import (
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// A second Lock waits for the first to be released.
func TestLockExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	unlock, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	var second atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		u, err := Lock(path)
		if err != nil {
			t.Error(err)
			return
		}
		second.Store(true)
		u()
	}()
	time.Sleep(100 * time.Millisecond)
	if second.Load() {
		t.Fatal("a second lock was taken while the first was held")
	}
	unlock()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the second lock was never taken")
	}
	if !second.Load() {
		t.Fatal("the second lock failed")
	}
}

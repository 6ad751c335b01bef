//go:build unix

package filelock

import (
	"context"
	"errors"
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

// LockContext says once that it waits for a held lock, and gives up when
// its context ends; it takes the lock once it is free.
func TestLockContextWaitsUntilCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	unlock, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var waits atomic.Int32
	done := make(chan error, 1)
	go func() {
		_, err := LockContext(ctx, path, func() { waits.Add(1); cancel() })
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || waits.Load() != 1 {
			t.Fatalf("LockContext: %v after %d notes of waiting; want context.Canceled after 1", err, waits.Load())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("LockContext did not stop when its context ended")
	}
	unlock()
	u, err := LockContext(context.Background(), path, func() { t.Error("waited for a free lock") })
	if err != nil {
		t.Fatal(err)
	}
	u()
}

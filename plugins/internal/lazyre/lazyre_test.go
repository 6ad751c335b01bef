package lazyre

import (
	"sync"
	"testing"
)

// An expression compiles once, on first use, for every caller at once.
func TestGet(t *testing.T) {
	r := New(`^a(?P<n>\d+)$`)
	if r.re != nil {
		t.Fatal("compiled before first use")
	}
	var wg sync.WaitGroup
	got := make(chan any, 8)
	for range 8 {
		wg.Go(func() { got <- r.Get() })
	}
	wg.Wait()
	close(got)
	first := r.Get()
	for g := range got {
		if g != first {
			t.Fatal("compiled more than once")
		}
	}
	if !first.MatchString("a12") || first.SubexpIndex("n") != 1 {
		t.Fatalf("compiled %v", first)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a bad expression did not panic on first use")
		}
	}()
	New(`(`).Get()
}

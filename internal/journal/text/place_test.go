package text

import (
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// A hunk's place is found within a bound on the comparisons: a hunk of
// 100,000 identical lines over a file of a million of them (the place
// nearest the one named holds the hunk only at its last line) was some
// 10^11 comparisons; it is now TOO_LARGE at once.
func TestHunkPlaceIsBounded(t *testing.T) {
	file := strings.Repeat("a\n", 1_000_000)
	old := make([]string, 100_000)
	for i := range old {
		old[i] = "a\n"
	}
	old[len(old)-1] = "b\n"
	h := Hunk{OldStart: 1, OldLines: old, NewLines: append(append([]string(nil), old[:len(old)-1]...), "c\n")}
	begin := time.Now()
	_, e := ApplyHunks("big.txt", file, []Hunk{h})
	if e == nil || e.Code != abi.TooLarge {
		t.Fatalf("a hunk that cannot be placed cheaply: %v", e)
	}
	if d := time.Since(begin); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
	// An ordinary patch still applies.
	got, e := ApplyHunks("small.txt", "x\ny\nz\n", []Hunk{{OldStart: 2, OldLines: []string{"y\n"}, NewLines: []string{"Y\n"}}})
	if e != nil || got != "x\nY\nz\n" {
		t.Errorf("an ordinary hunk: %q %v", got, e)
	}
}

package journal

import (
	"math"
	"testing"
)

// Change ids sort as text in the order of their numbers, as bbolt keeps
// its keys and the journal compares them, past a million and up to the
// largest sequence; what a user types names the same change.
func TestChangeIDsSortAsText(t *testing.T) {
	ns := []uint64{1, 42, 999_999, 1_000_000, 1_000_001, 9_999_999, 10_000_000, 123_456_789_012, math.MaxUint64}
	for i, n := range ns {
		id := changeID(n)
		if i > 0 && changeID(ns[i-1]) >= id {
			t.Errorf("%s sorts before %s", id, changeID(ns[i-1]))
		}
		if changeSeq(id) != n {
			t.Errorf("%s reads back as %d", id, changeSeq(id))
		}
		for _, typed := range []string{id, " " + id + " ", "c" + id[1:]} {
			if got, ok := normalizeID(typed); !ok || got != id {
				t.Errorf("%q names %q, want %s", typed, got, id)
			}
		}
	}
	for _, bad := range []string{"", "c", "c0", "x12", "c-1", "cc1"} {
		if got, ok := normalizeID(bad); ok {
			t.Errorf("%q names %s", bad, got)
		}
	}
}

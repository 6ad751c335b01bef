package journal

import (
	"context"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"
)

// textDiff's text is udiff.Unified's, and its counts are the + and - lines
// of that diff, whether rendered or counted alone: over random pairs of
// files made of a few distinct lines, with and without a last newline, and
// lines that start with "--" or "++", which look like a diff's header once
// removed or added.
func TestTextDiffMatchesUnified(t *testing.T) {
	pool := []string{"a\n", "b\n", "-- c\n", "++ d\n", "e\n", "\n", "f"}
	r := rand.New(rand.NewPCG(1, 2))
	file := func() string {
		var b strings.Builder
		for range r.IntN(30) {
			b.WriteString(pool[r.IntN(len(pool)-1)])
		}
		if r.IntN(3) == 0 {
			b.WriteString(pool[len(pool)-1]) // no last newline
		}
		return b.String()
	}
	for i := range 3000 {
		old := file()
		new := old
		switch i % 3 {
		case 0:
			new = file()
		case 1: // a few lines changed in place
			ls := strings.SplitAfter(old, "\n")
			for range 1 + r.IntN(3) {
				k := r.IntN(len(ls))
				ls[k] = pool[r.IntN(len(pool))]
			}
			new = strings.Join(ls, "")
		}
		want := udiff.Unified("a/x", "b/x", old, new)
		u, err := udiff.ToUnifiedDiff("a/x", "b/x", old, udiff.Lines(old, new), udiff.DefaultContextLines)
		if err != nil {
			t.Fatal(err)
		}
		wantAdded, wantRemoved := 0, 0
		for _, h := range u.Hunks {
			for _, l := range h.Lines {
				switch l.Kind {
				case udiff.Insert:
					wantAdded++
				case udiff.Delete:
					wantRemoved++
				}
			}
		}
		got, added, removed := textDiff("a/x", "b/x", old, new, true)
		if got != want || added != wantAdded || removed != wantRemoved {
			t.Fatalf("%q → %q:\ngot +%d -%d\n%s\nwant +%d -%d\n%s", old, new, added, removed, got, wantAdded, wantRemoved, want)
		}
		if got, a, r := textDiff("a/x", "b/x", old, new, false); got != "" || a != added || r != removed {
			t.Fatalf("%q → %q counted alone: %q +%d -%d, want +%d -%d", old, new, got, a, r, added, removed)
		}
	}
}

// A change's diff stops at its cut, and every file keeps its counts past
// it: 300 files of 1,700 changed lines, of which the first fills the 64 KB
// diff.
func TestDiffCountsPastTheCut(t *testing.T) {
	f, ops := replace300(t)
	res, e := f.do(true, ops...)
	if e != nil {
		t.Fatal(e)
	}
	if !res.DiffCut || len(res.Diff) > DefaultMaxDiff {
		t.Fatalf("diff of %d bytes, cut %v", len(res.Diff), res.DiffCut)
	}
	lines := strings.Count(f.read("src/f299.go"), "\n")
	for _, fc := range res.Files {
		if fc.Added != lines || fc.Removed != lines {
			t.Fatalf("%s: +%d -%d, want +%d -%d", fc.Path, fc.Added, fc.Removed, lines, lines)
		}
	}
}

// The dry run of a large change makes the diff it shows and counts the
// lines of the rest without writing them out: 300 files of 100 KB, every
// line changed, allocated 839 MB when every file's diff was written, under
// juju stdio's soft memory limit of 64 MiB (docs/RATIONALE.md).
func TestDryRunPastTheCutAllocatesLittle(t *testing.T) {
	f, ops := replace300(t)
	req, body := request(true, ops)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, e := f.j.Apply(context.Background(), who, req, body); e != nil {
		t.Fatal(e)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 150<<20 {
		t.Fatalf("the dry run allocated %d MB", n>>20)
	}
}

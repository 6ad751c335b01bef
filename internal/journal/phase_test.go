package journal

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// BenchmarkEditPhases splits one journaled edit into its steps and
// reports the time of each (µs/op): intent (open the database, settle,
// record the intent and pre-image, synced, and meanwhile write the new
// content to an unnamed file, fdatasync), temp (link it under its
// temporary name, or write a named one), rename, commit (sync the
// folder), done (the done record, not synced).
func BenchmarkEditPhases(b *testing.B) {
	var last time.Time
	acc := map[string]time.Duration{}
	f := newFixture(b, map[string]string{"a.go": "package a\n\nvar x = 0\n"}, WithFault(func(p string) {
		if strings.HasPrefix(p, "unnamed:") {
			return // written beside the intent, on another goroutine
		}
		acc[p] += time.Since(last)
		last = time.Now()
	}))
	n := 0
	for i := 0; b.Loop(); i++ {
		last = time.Now()
		if _, e := f.apply(edit("a.go", fmt.Sprintf("x = %d", i), fmt.Sprintf("x = %d", i+1))); e != nil {
			b.Fatal(e)
		}
		acc["done"] += time.Since(last)
		n++
	}
	for _, p := range []string{"intent", "temp:0", "rename:0", "commit", "done"} {
		b.ReportMetric(float64(acc[p].Microseconds())/float64(n), p+"-µs/op")
	}
}

// BenchmarkOpen is the cost of opening the database for one operation
// and closing it again.
func BenchmarkOpen(b *testing.B) {
	f := newFixture(b, nil)
	for b.Loop() {
		f.j.withDB(func(db *bolt.DB) error { return nil })
	}
}

// BenchmarkEditOverlap alternates, edit by edit, between the commit that
// writes the new content while the intent commits (unnamed temporary
// files) and the one that writes it after: the disk's noise falls on both
// alike. It reports each one's median per edit.
func BenchmarkEditOverlap(b *testing.B) {
	f := newFixture(b, map[string]string{"a.go": "package a\n\nvar x = 0\n"})
	var times [2][]time.Duration
	for i := 0; b.Loop(); i++ {
		f.j.opts.serial = i%2 == 1
		t := time.Now()
		if _, e := f.apply(edit("a.go", fmt.Sprintf("x = %d", i), fmt.Sprintf("x = %d", i+1))); e != nil {
			b.Fatal(e)
		}
		times[i%2] = append(times[i%2], time.Since(t))
	}
	for k, name := range []string{"overlap", "serial"} {
		slices.Sort(times[k])
		if len(times[k]) > 0 {
			b.ReportMetric(float64(times[k][len(times[k])/2].Microseconds()), name+"-µs/op")
		}
	}
}

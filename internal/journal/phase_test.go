package journal

import (
	"fmt"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// BenchmarkEditPhases splits one journaled edit into its steps and
// reports the time of each (µs/op): intent (open the database, settle,
// record the intent and pre-image, synced), temp (write the temporary
// file, fdatasync), rename, commit (sync the folder), done (the done
// record, not synced).
func BenchmarkEditPhases(b *testing.B) {
	var last time.Time
	acc := map[string]time.Duration{}
	f := newFixture(b, map[string]string{"a.go": "package a\n\nvar x = 0\n"}, WithFault(func(p string) {
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

package journal

import (
	"fmt"
	"testing"
)

// BenchmarkEdit is one journaled edit of a small file: open the database,
// record the intent with the pre-image, write atomically, mark it done.
func BenchmarkEdit(b *testing.B) {
	f := newFixture(b, map[string]string{"a.go": "package a\n\nvar x = 0\n"})
	for i := 0; b.Loop(); i++ {
		if _, e := f.apply(edit("a.go", fmt.Sprintf("x = %d", i), fmt.Sprintf("x = %d", i+1))); e != nil {
			b.Fatal(e)
		}
	}
}

// BenchmarkWrite20 is one change writing 20 files.
func BenchmarkWrite20(b *testing.B) {
	f := newFixture(b, nil)
	for i := 0; b.Loop(); i++ {
		var ops []wop
		for k := range 20 {
			ops = append(ops, write(fmt.Sprintf("f%02d.txt", k), fmt.Sprintf("content %d %d\n", k, i)))
		}
		if _, e := f.apply(ops...); e != nil {
			b.Fatal(e)
		}
	}
}

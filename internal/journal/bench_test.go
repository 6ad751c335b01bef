package journal

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
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

// replace300 is replace_in_files' change over 300 files of 100 KB in
// which every line holds the replaced string: each file written whole,
// named by the hash it was read at.
func replace300(b testing.TB) (*fixture, []wop) {
	var s strings.Builder
	for i := 0; s.Len() < 100<<10; i++ {
		fmt.Fprintf(&s, "\tif err := handle%d(ctx, value); err != nil { return err }\n", i)
	}
	old := s.String()
	sum := sha256.Sum256([]byte(old))
	files := map[string]string{}
	var ops []wop
	for i := range 300 {
		name := fmt.Sprintf("src/f%03d.go", i)
		files[name] = old
		w := write(name, strings.ReplaceAll(old, "err", "e"))
		w.ExpectedSHA256 = hex.EncodeToString(sum[:])
		ops = append(ops, w)
	}
	return newFixture(b, files), ops
}

// BenchmarkDryRunReplace300 is the dry run of replace300: each file read
// and hashed, and the result's diff and line counts.
func BenchmarkDryRunReplace300(b *testing.B) {
	f, ops := replace300(b)
	req, body := request(true, ops)
	b.ReportAllocs()
	for b.Loop() {
		if _, e := f.j.Apply(context.Background(), who, req, body); e != nil {
			b.Fatal(e)
		}
	}
}

package search

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// rg's records are read whole whatever the names hold, and however the
// output arrives.
func TestReadRecords(t *testing.T) {
	long := strings.Repeat("x", maxEventBytes+1)
	in := "a.go\x001:1:func\n" +
		"a\nb.go\x002:3:two\n" + // a name with a line break
		"q\n\nz.txt\x001:1:blank line in the name\n" +
		"long.go\x001:1:" + long + "\n" + // skipped, and the next read whole
		"c.go\x003:1:x\n" +
		"tail.go\x004:2:no final line break"
	want := []string{
		"a.go\x001:1:func",
		"a\nb.go\x002:3:two",
		"q\n\nz.txt\x001:1:blank line in the name",
		"c.go\x003:1:x",
		"tail.go\x004:2:no final line break",
	}
	for name, r := range map[string]func() io.Reader{
		"whole":       func() io.Reader { return strings.NewReader(in) },
		"single byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(in)) },
	} {
		t.Run(name, func(t *testing.T) {
			var got, heads []string
			if err := readRecords(r(), func(rec []byte) bool { got = append(got, string(rec)); return true },
				func(head []byte) { heads = append(heads, string(head)) }); err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("records:\n%q\nwant\n%q", got, want)
			}
			// The record too long to read is announced by its head.
			if len(heads) != 1 || len(heads[0]) != longHead || !strings.HasPrefix(heads[0], "long.go\x001:1:xxx") {
				t.Fatalf("long records: %d, %.40q", len(heads), heads)
			}
		})
	}
	// Lines without a NUL are held at most a name's length: rg writes none,
	// and a run of them costs no more than that.
	junk := strings.Repeat("no nul here\n", maxNameBytes/4)
	n := 0
	readRecords(strings.NewReader(junk+"d.go\x001:1:d\n"), func(rec []byte) bool {
		if len(rec) > maxNameBytes+len("no nul here\n")+len("d.go\x001:1:d") {
			t.Fatalf("a record of %d bytes", len(rec))
		}
		n++
		return true
	}, func([]byte) { t.Fatal("a long record in a run of short lines") })
	if n < len(junk)/(maxNameBytes+12) {
		t.Fatalf("%d records from the run", n)
	}
}

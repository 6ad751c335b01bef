package fs

import (
	"context"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// TestReadAllocations bounds what the host allocates to serve a small
// fs.read and an fs.reads of two: every read_file and read_files pays it.
// encoding/json's strict decoder and json.Marshal made it 21 and 44
// allocations (DecodeReadRequest and AppendReadResult: 14 and 32).
func TestReadAllocations(t *testing.T) {
	f := newFixture(t, Options{})
	must(t, writeFile(f.ws, "tiny.txt", "hello\nworld\n"))
	ctx := context.Background()
	for _, c := range []struct {
		fn, header string
		most       float64
	}{
		{abi.FnFSRead, `{"path":"tiny.txt","line":1,"lines":2000,"maxBytes":90000}`, 16},
		{abi.FnFSReads, `{"reads":[{"path":"tiny.txt","line":1},{"path":"tiny.txt","maxBytes":5}]}`, 36},
	} {
		n := testing.AllocsPerRun(200, func() {
			if h, _ := f.fns[c.fn](ctx, []byte(c.header), nil); strings.Contains(string(h), `"error"`) {
				t.Fatal(string(h))
			}
		})
		t.Logf("%s: %.0f allocations", c.fn, n)
		if n > c.most {
			t.Errorf("%s of a tiny file made %.0f allocations, want at most %.0f", c.fn, n, c.most)
		}
	}
}

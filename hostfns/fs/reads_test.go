package fs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// frames splits the body of a juju_fs_reads answer into its frames, failing
// unless it holds exactly n of them.
func frames(t testing.TB, body []byte, n int) (headers, bodies [][]byte) {
	t.Helper()
	for range n {
		h, b, rest, err := abi.NextFramed(body)
		if err != nil {
			t.Fatalf("frame %d of %d: %v", len(headers), n, err)
		}
		headers, bodies, body = append(headers, h), append(bodies, b), rest
	}
	if len(body) != 0 {
		t.Fatalf("%d bytes after the %d frames", len(body), n)
	}
	return headers, bodies
}

// TestReadsAnswerAsReadAlone checks that each read of a batch is answered
// exactly as juju_fs_read answers it alone, in the order asked, whatever
// it meets: text, lines, a binary file, a folder, a secret, a symlink out
// of the root, a missing file, a bad request.
func TestReadsAnswerAsReadAlone(t *testing.T) {
	f := newFixture(t, Options{})
	reqs := []abi.ReadRequest{
		{Path: "a.txt"},
		{Path: "lines.txt", Line: 3, Lines: 2},
		{Path: "lines.txt", Line: 1, MaxBytes: 17},
		{Path: "bin.dat"},
		{Path: "bin.dat", Binary: true},
		{Path: "sub"},
		{Path: ".env"},
		{Path: "link-secret"},
		{Path: "link-out"},
		{Path: "keys/k.pem"},
		{Path: "data/key-copy.txt"},
		{Path: "nope.txt"},
		{Path: "../outside/x.txt"},
		{Path: f.outside + "/x.txt"},
		{Path: "a.txt", Offset: -1},
		{Path: "a.txt", MaxBytes: -1},
		{Path: "empty.txt"},
		{Path: "link-a", Offset: 6, Length: 3},
	}
	var res abi.ReadsResult
	body := f.call(t, abi.FnFSReads, abi.ReadsRequest{Reads: reqs}, &res)
	if res.Error != nil || res.Reads != len(reqs) {
		t.Fatalf("answer %+v, want %d reads", res, len(reqs))
	}
	headers, bodies := frames(t, body, len(reqs))
	failed := 0
	for i, req := range reqs {
		hdr, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		wantH, wantB := f.fns[abi.FnFSRead](context.Background(), hdr, nil)
		if !bytes.Equal(headers[i], wantH) || !bytes.Equal(bodies[i], wantB) {
			t.Errorf("read %d (%+v):\n got %s %q\nwant %s %q", i, req, headers[i], bodies[i], wantH, wantB)
		}
		if bytes.Contains(headers[i], []byte(`"error"`)) {
			failed++
		}
		named := strings.HasPrefix(req.Path, f.outside) // an error may quote the path asked
		if !named && bytes.Contains(headers[i], []byte(f.outside)) || bytes.Contains(bodies[i], []byte("OUTSIDE")) ||
			bytes.Contains(bodies[i], []byte("TOKEN")) || bytes.Contains(bodies[i], []byte("PRIVATE KEY")) {
			t.Errorf("read %d (%+v) lets out what it must not: %s %q", i, req, headers[i], bodies[i])
		}
	}
	if failed < 9 {
		t.Errorf("only %d reads failed; the secrets, the paths out of the root and the bad requests must", failed)
	}
}

// TestReadsShareTheCap checks that the reads of a batch share the host's
// cap on one read, and that a read asking for less keeps its own cap.
func TestReadsShareTheCap(t *testing.T) {
	f := newFixture(t, Options{MaxReadBytes: 20})
	reqs := []abi.ReadRequest{{Path: "lines.txt"}, {Path: "lines.txt", MaxBytes: 3}, {Path: "lines.txt", MaxBytes: 100}, {Path: "a.txt", Line: 1}}
	var res abi.ReadsResult
	body := f.call(t, abi.FnFSReads, abi.ReadsRequest{Reads: reqs}, &res)
	if res.Error != nil {
		t.Fatal(res.Error)
	}
	headers, bodies := frames(t, body, len(reqs))
	for i, want := range []string{"line ", "lin", "line ", "hello"} {
		var r abi.ReadResult
		if err := json.Unmarshal(headers[i], &r); err != nil || r.Error != nil {
			t.Fatalf("read %d: %s", i, headers[i])
		}
		if string(bodies[i]) != want || !r.Truncated {
			t.Errorf("read %d: %q (truncated %v), want %q cut at its share", i, bodies[i], r.Truncated, want)
		}
	}
}

// TestReadsRefused checks the batches refused whole, and that a header the
// handler cannot decode is an error, not a panic.
func TestReadsRefused(t *testing.T) {
	f := newFixture(t, Options{})
	many := make([]abi.ReadRequest, abi.MaxReads+1)
	for i := range many {
		many[i].Path = "a.txt"
	}
	for _, c := range []struct {
		name string
		req  any
	}{
		{"empty", abi.ReadsRequest{}},
		{"null reads", `{"reads":null}`},
		{"too many", abi.ReadsRequest{Reads: many}},
		{"unknown field", `{"reads":[{"path":"a.txt"}],"all":true}`},
		{"a read of the wrong type", `{"reads":["a.txt"]}`},
		{"not an object", `[]`},
	} {
		var res abi.ReadsResult
		if body := f.call(t, abi.FnFSReads, c.req, &res); len(body) != 0 {
			t.Errorf("%s: a refused batch answers %d bytes", c.name, len(body))
		}
		f.wantErr(t, c.name, res.Status, abi.InvalidArgument)
	}
	var res abi.ReadsResult
	body := f.call(t, abi.FnFSReads, abi.ReadsRequest{Reads: many[:abi.MaxReads]}, &res)
	if res.Error != nil || res.Reads != abi.MaxReads {
		t.Fatalf("%d reads: %+v", abi.MaxReads, res)
	}
	_, bodies := frames(t, body, abi.MaxReads)
	for i, b := range bodies {
		if string(b) != "hello\nworld\n" {
			t.Fatalf("read %d: %q", i, b)
		}
	}
}

// TestReadsAtOnce runs batches from several goroutines at once over files
// that are rewritten meanwhile (go test -race): every answer is a whole
// read of one version of its file, in the order asked.
func TestReadsAtOnce(t *testing.T) {
	f := newFixture(t, Options{})
	var reqs []abi.ReadRequest
	for i := range 12 {
		name := fmt.Sprintf("f%02d.txt", i)
		must(t, writeFile(f.ws, name, strings.Repeat(name+"\n", 50)))
		reqs = append(reqs, abi.ReadRequest{Path: name})
	}
	hdr, err := json.Marshal(abi.ReadsRequest{Reads: reqs})
	must(t, err)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for j := range 50 {
			name := fmt.Sprintf("f%02d.txt", j%12)
			must(t, writeFile(f.ws, name, strings.Repeat(name+"\n", 50)))
		}
	}()
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			for range 20 {
				out, body := f.fns[abi.FnFSReads](context.Background(), hdr, nil)
				var res abi.ReadsResult
				if err := json.Unmarshal(out, &res); err != nil || res.Error != nil || res.Reads != len(reqs) {
					errs <- fmt.Errorf("answer %s", out)
					return
				}
				for i := range reqs {
					h, b, rest, err := abi.NextFramed(body)
					if err != nil {
						errs <- err
						return
					}
					body = rest
					var r abi.ReadResult
					if json.Unmarshal(h, &r) != nil || r.Path != reqs[i].Path {
						errs <- fmt.Errorf("read %d answered %s", i, h)
						return
					}
					if len(b) != 0 && string(b) != strings.Repeat(reqs[i].Path+"\n", 50) {
						errs <- fmt.Errorf("read %d: %d bytes, not its file", i, len(b))
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	<-done
}

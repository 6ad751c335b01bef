//go:build !wasip1

package juju

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// TestReadFilesRoundTrip checks that ReadFiles sends every request in one
// call, in order, and gives each read its own answer or its own error.
func TestReadFilesRoundTrip(t *testing.T) {
	reqs := []abi.ReadRequest{{Path: "a.txt", Line: 1, Lines: 5}, {Path: ".env"}, {Path: "b \"quoted\".txt", MaxBytes: 9, Binary: true}}
	calls := 0
	withHost(t, func(fn string, header, _ []byte) ([]byte, []byte) {
		calls++
		var got abi.ReadsRequest
		if err := json.Unmarshal(header, &got); err != nil || fn != abi.FnFSReads || !reflect.DeepEqual(got.Reads, reqs) {
			t.Fatalf("request %s %s (%v)", fn, header, err)
		}
		var body []byte
		body = abi.AppendFramed(body, []byte(`{"path":"a.txt","size":4,"modTime":"x","firstLine":1,"lineCount":1,"totalLines":1}`), []byte("one\n"))
		body = abi.AppendFramed(body, []byte(`{"error":{"code":"SECRET_DENIED","message":".env is a secret"}}`), nil)
		body = abi.AppendFramed(body, []byte(`{"path":"b \"quoted\".txt","size":2,"modTime":"y","unknown":null}`), []byte("hi"))
		return []byte(`{"reads":3}`), body
	})
	outs, err := ReadFiles(reqs)
	if err != nil || len(outs) != 3 || calls != 1 {
		t.Fatalf("got %+v, %v after %d calls", outs, err, calls)
	}
	if r := outs[0]; r.Err != nil || string(r.Bytes) != "one\n" || r.Result.TotalLines != 1 || r.Result.Path != "a.txt" {
		t.Errorf("read 0: %+v", r)
	}
	if r := outs[1]; !IsCode(r.Err, abi.SecretDenied) || r.Result != nil || r.Bytes != nil {
		t.Errorf("read 1: %+v", r)
	}
	if r := outs[2]; r.Err != nil || string(r.Bytes) != "hi" || r.Result.Path != `b "quoted".txt` || r.Result.Size != 2 {
		t.Errorf("read 2 (left to encoding/json): %+v", r)
	}
}

// TestReadFilesMalformed checks that an answer whose body does not hold
// exactly the reads asked is an INTERNAL error, and that a batch the host
// refuses whole keeps the host's code.
func TestReadFilesMalformed(t *testing.T) {
	one := abi.AppendFramed(nil, []byte(`{"path":"a","size":1,"modTime":"x"}`), []byte("a"))
	for name, answer := range map[string]struct {
		header string
		body   []byte
	}{
		"fewer frames":     {`{"reads":2}`, one},
		"more frames":      {`{"reads":1}`, append(append([]byte(nil), one...), one...)},
		"count not asked":  {`{"reads":2}`, append(append([]byte(nil), one...), one...)},
		"cut frame":        {`{"reads":1}`, one[:len(one)-1]},
		"header not JSON":  {`{"reads":1}`, abi.AppendFramed(nil, []byte("{"), nil)},
		"negative count":   {`{"reads":-1}`, nil},
		"frame length lie": {`{"reads":1}`, []byte{255, 255, 255, 255, 0, 0, 0, 0}},
	} {
		withHost(t, func(string, []byte, []byte) ([]byte, []byte) { return []byte(answer.header), answer.body })
		if _, err := ReadFiles([]abi.ReadRequest{{Path: "a"}}); !IsCode(err, abi.Internal) {
			t.Errorf("%s: got %v", name, err)
		}
	}
	withHost(t, func(string, []byte, []byte) ([]byte, []byte) {
		return []byte(`{"error":{"code":"INVALID_ARGUMENT","message":"too many"}}`), nil
	})
	if _, err := ReadFiles(make([]abi.ReadRequest, 65)); !IsCode(err, abi.InvalidArgument) {
		t.Errorf("refused batch: got %v", err)
	}
}

// FuzzSplitReads holds that splitReads never panics, and that what it
// accepts is exactly n frames whose bytes it hands back unchanged.
func FuzzSplitReads(f *testing.F) {
	var two []byte
	two = abi.AppendFramed(two, []byte(`{"path":"a","size":1,"modTime":"x"}`), []byte("a"))
	two = abi.AppendFramed(two, []byte(`{"error":{"code":"NOT_FOUND","message":"no"}}`), nil)
	f.Add(two, 2)
	f.Add(two[:len(two)-3], 2)
	f.Add([]byte{}, 0)
	f.Add([]byte{4, 0, 0, 0, 0, 0, 0, 0}, 1)
	f.Fuzz(func(t *testing.T, body []byte, n int) {
		outs, ok := splitReads(body, n)
		if !ok {
			return
		}
		if len(outs) != n {
			t.Fatalf("%d outcomes for %d reads", len(outs), n)
		}
		rest := body
		for i, o := range outs {
			_, b, r, err := abi.NextFramed(rest)
			if err != nil {
				t.Fatalf("accepted a body whose frame %d does not split: %v", i, err)
			}
			rest = r
			if (o.Err == nil) == (o.Result == nil) {
				t.Fatalf("outcome %d has both or neither of a result and an error: %+v", i, o)
			}
			if o.Err == nil && string(o.Bytes) != string(b) {
				t.Fatalf("outcome %d: bytes %q, frame %q", i, o.Bytes, b)
			}
		}
		if len(rest) != 0 {
			t.Fatalf("accepted %d bytes after the frames", len(rest))
		}
	})
}

package abi

import (
	"bytes"
	"testing"
)

// FuzzDecodeFrame checks the frame codec: decoding never panics, and what
// decodes re-encodes to the same bytes.
func FuzzDecodeFrame(f *testing.F) {
	f.Add(EncodeFrame([]byte(`{"path":"a"}`), []byte("body")))
	f.Add([]byte{1, 0, 0})
	f.Add([]byte{255, 255, 255, 255, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		h, body, err := DecodeFrame(b)
		if err != nil {
			return
		}
		if !bytes.Equal(EncodeFrame(h, body), b) {
			t.Fatalf("round trip of %q differs", b)
		}
	})
}

// FuzzNextFramed checks the run of frames of a juju_fs_reads answer:
// splitting never panics, and the frames split off re-encode, with what
// follows them, to the same bytes.
func FuzzNextFramed(f *testing.F) {
	two := AppendFramed(AppendFramed(nil, []byte(`{"path":"a"}`), []byte("body")), []byte(`{}`), nil)
	f.Add(two)
	f.Add(two[:len(two)-1])
	f.Add([]byte{3, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{255, 255, 255, 255, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		var again []byte
		rest := b
		for len(rest) > 0 {
			h, body, r, err := NextFramed(rest)
			if err != nil {
				return
			}
			if len(r) >= len(rest) {
				t.Fatalf("NextFramed(%q) did not advance", rest)
			}
			again, rest = AppendFramed(again, h, body), r
		}
		if !bytes.Equal(again, b) {
			t.Fatalf("round trip of %q gave %q", b, again)
		}
	})
}

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

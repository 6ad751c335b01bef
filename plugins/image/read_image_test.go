package main

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
)

// jpegFrame reads the frame header of a baseline JPEG, and every cut or
// changed copy of one without panicking: the file is the workspace's.
func TestJPEGFrameOfHostileHeaders(t *testing.T) {
	var b bytes.Buffer
	jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 100, 50)), nil)
	sof, ok := jpegFrame(b.Bytes())
	if !ok || sof.width != 100 || sof.height != 50 || sof.progressive || len(sof.h) != 1 {
		t.Fatalf("%+v %v", sof, ok)
	}
	if n := decodeBytes("jpeg", b.Bytes(), image.Config{Width: 100, Height: 50, ColorModel: color.GrayModel}); n != 13*7*64 {
		t.Errorf("decodeBytes = %d, want %d", n, 13*7*64)
	}
	head := b.Bytes()[:min(b.Len(), 700)]
	for i := range head {
		jpegFrame(head[:i])
		for _, v := range []byte{0, 1, 0xff, 0xc2, 0xda} {
			c := bytes.Clone(head)
			c[i] = v
			jpegFrame(c)
		}
	}
}

package test

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"strings"
	"testing"
)

// progressiveJPEG is a w×h progressive JPEG of three components sampled
// alike, its one scan the DC coefficients of a flat image: a few bytes a
// block, whatever its size.
func progressiveJPEG(w, h int) string {
	seg := func(m byte, d []byte) []byte {
		return append([]byte{0xff, m, byte((len(d) + 2) >> 8), byte(len(d) + 2)}, d...)
	}
	var b []byte
	b = append(b, 0xff, 0xd8)
	b = append(b, seg(0xdb, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...))...)
	b = append(b, seg(0xc2, []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0})...)
	b = append(b, seg(0xc4, append([]byte{0, 1}, make([]byte, 16)...))...)
	b = append(b, seg(0xda, []byte{3, 1, 0, 2, 0, 3, 0, 0, 0, 0})...)
	blocks := (w + 7) / 8 * ((h + 7) / 8) * 3
	b = append(b, make([]byte, blocks/8+16)...) // a one-bit code each: no change of DC
	return string(append(b, 0xff, 0xd9))
}

// interlacedPNG16 is a w×h black PNG of 16 bits a channel, RGBA,
// Adam7-interlaced.
func interlacedPNG16(t *testing.T, w, h int) string {
	var idat bytes.Buffer
	z, _ := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	for _, p := range [][4]int{{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}} {
		pw, ph := (w-p[0]+p[2]-1)/p[2], (h-p[1]+p[3]-1)/p[3]
		if pw <= 0 || ph <= 0 {
			continue
		}
		row := make([]byte, 1+pw*8)
		for range ph {
			z.Write(row)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	chunk := func(typ string, d []byte) []byte {
		c := binary.BigEndian.AppendUint32(nil, uint32(len(d)))
		c = append(append(c, typ...), d...)
		return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
	}
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, uint32(w)), uint32(h))
	ihdr = append(ihdr, 16, 6, 0, 0, 1)
	b := []byte("\x89PNG\r\n\x1a\n")
	b = append(b, chunk("IHDR", ihdr)...)
	b = append(b, chunk("IDAT", idat.Bytes())...)
	return string(append(b, chunk("IEND", nil)...))
}

// An image within read_image's pixel bound that takes more memory to
// decode than the plugin has — a progressive JPEG of 24 million pixels
// (141 KB: its coefficients take 4 bytes a pixel of each component), an
// interlaced PNG of 16 bits a channel — is refused as TOO_LARGE, saying
// why, before it is decoded; a smaller progressive JPEG is still read.
// Before, each ran core-image out of memory and was answered
// PLUGIN_FAILED "it trapped", which told the model nothing it could do.
func TestReadImageRefusesWhatItCannotDecode(t *testing.T) {
	root := workspace(t, map[string]string{
		"prog.jpg":    progressiveJPEG(4898, 4898),
		"small.jpg":   progressiveJPEG(2000, 2000),
		"inter16.png": interlacedPNG16(t, 4898, 4898),
	})
	s := start(t, root, "--mode", "trusted")
	for _, c := range []struct{ path, how string }{
		{"prog.jpg", "a progressive JPEG"},
		{"inter16.png", "an interlaced PNG"},
	} {
		msg := s.fail("read_image", map[string]any{"path": c.path}, "TOO_LARGE")
		if !strings.Contains(msg, "4898×4898 pixels stored as "+c.how) || !strings.Contains(msg, "make a smaller copy") {
			t.Errorf("%s: %s", c.path, msg)
		}
	}
	res := s.call("read_image", map[string]any{"path": "small.jpg"})
	if res.IsError {
		t.Fatalf("small.jpg: %s", text(res))
	}
	if sc := structured(t, res); sc["downscaled"] != true || sc["originalWidth"] != float64(2000) {
		t.Errorf("small.jpg: %v", sc)
	}
}

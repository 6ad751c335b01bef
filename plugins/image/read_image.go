package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"slices"
	"strings"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// Image caps: an image above either is downscaled (keeping its aspect) and
// re-encoded; one whose file or pixel count is past the hard limits is
// refused.
const (
	maxSide       = 1568
	maxImageBytes = 1 << 20
	maxFileBytes  = 32 << 20
	maxPixels     = 24_000_000 // 96 MB decoded at 8 bits a channel
	// maxDecodeBytes bounds what decoding may take, with the file: the
	// plugin's memory is 256 MiB. An image within maxPixels may take more
	// than 4 bytes a pixel: 8 at 16 bits a channel, half as much again
	// interlaced (a PNG's passes beside the image), and a progressive
	// JPEG's coefficients take 4 bytes a pixel of each component. A
	// 24-million-pixel progressive JPEG of 141 KB, or an interlaced PNG of
	// 16 bits a channel, ran the plugin out of memory, answered as a trap.
	maxDecodeBytes = 200 << 20
)

// ReadImageArgs are the arguments of read_image.
type ReadImageArgs struct {
	Path string `json:"path" jsonschema:"required" min:"1" desc:"The image file (PNG, JPEG, GIF or WebP): relative to the first workspace root, or absolute inside a root."`
}

// ReadImageResult is the structured content of read_image.
type ReadImageResult struct {
	Path           string `json:"path" desc:"The image, relative to the first root."`
	Format         string `json:"format" desc:"png, jpeg, gif or webp: the format of the file."`
	MimeType       string `json:"mimeType" desc:"The MIME type of the image returned."`
	Width          int    `json:"width" desc:"Width of the image returned, in pixels."`
	Height         int    `json:"height" desc:"Height of the image returned, in pixels."`
	OriginalWidth  int    `json:"originalWidth" desc:"Width of the file's image."`
	OriginalHeight int    `json:"originalHeight" desc:"Height of the file's image."`
	FileBytes      int64  `json:"fileBytes" desc:"Size of the file."`
	Bytes          int    `json:"bytes" desc:"Size of the image returned."`
	Downscaled     bool   `json:"downscaled" desc:"True when the image was scaled down (longest side at most 1568 px, about 1 MB at most) and re-encoded."`
}

func init() {
	juju.Tool("read_image", juju.ReadTool("Read image",
		"Returns an image file (PNG, JPEG, GIF, WebP) as image content the model can see, with its format and size. "+
			"An image whose longest side is over 1568 px or whose file is over 1 MB is scaled down, keeping its aspect, and re-encoded (PNG when it has transparency, else JPEG). "+
			"A GIF's first frame is used when it must be scaled. SVG and other formats are refused: read them as text with read_file.",
		ReadImageResult{}), readImage)
}

// format detects an image format from the first bytes of a file.
func format(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}):
		return "jpeg"
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return "gif"
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "webp"
	}
	return ""
}

func readImage(_ *juju.Call, in ReadImageArgs) (*juju.Result, error) {
	rr, data, err := juju.ReadFile(abi.ReadRequest{Path: in.Path, MaxBytes: maxFileBytes, Binary: true})
	if err != nil {
		return nil, err
	}
	if rr.Size > maxFileBytes || rr.Truncated {
		return nil, juju.Errorf(abi.TooLarge, "%q is %d bytes, over the %d MiB read_image accepts; make a smaller copy of the image first", rr.Path, rr.Size, maxFileBytes>>20)
	}
	f := format(data)
	if f == "" {
		what := "not a PNG, JPEG, GIF or WebP image"
		if looksSVG(data) {
			what = "an SVG image, which is text"
		}
		return nil, juju.Errorf(abi.InvalidArgument, "%q is %s; read_image takes PNG, JPEG, GIF and WebP files: read this one with read_file", rr.Path, what)
	}
	cfg, err := decodeConfig(f, data)
	if err != nil {
		return nil, juju.Errorf(abi.InvalidArgument, "%q could not be decoded as %s (%v); the file may be corrupt or truncated", rr.Path, strings.ToUpper(f), err)
	}
	if cfg.Width*cfg.Height > maxPixels || cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, juju.Errorf(abi.TooLarge, "%q is %d×%d pixels, more than read_image decodes (%d million pixels); make a smaller copy first", rr.Path, cfg.Width, cfg.Height, maxPixels/1_000_000)
	}
	if need := decodeBytes(f, data, cfg); need+int64(len(data)) > maxDecodeBytes {
		return nil, juju.Errorf(abi.TooLarge, "%q is %d×%d pixels stored as %s, which takes about %d MB to decode, more than read_image has (%d MB); make a smaller copy first (8 bits a channel, not interlaced or progressive)",
			rr.Path, cfg.Width, cfg.Height, decodeHow(f, data), need>>20, maxDecodeBytes>>20)
	}
	img, err := decode(f, data)
	if err != nil {
		return nil, juju.Errorf(abi.InvalidArgument, "%q could not be decoded as %s (%v); the file may be corrupt or truncated", rr.Path, strings.ToUpper(f), err)
	}
	out := ReadImageResult{
		Path: rr.Path, Format: f, MimeType: "image/" + f,
		Width: cfg.Width, Height: cfg.Height, OriginalWidth: cfg.Width, OriginalHeight: cfg.Height,
		FileBytes: rr.Size,
	}
	if max(cfg.Width, cfg.Height) > maxSide || len(data) > maxImageBytes {
		if data, out.MimeType, err = shrink(img, &out); err != nil {
			return nil, err
		}
		out.Downscaled = true
	}
	out.Bytes = len(data)
	note := fmt.Sprintf("%s: %s image, %d×%d px, %d bytes", juju.PathText(out.Path), strings.ToUpper(f), out.OriginalWidth, out.OriginalHeight, out.FileBytes)
	if out.Downscaled {
		note += fmt.Sprintf("; returned scaled down to %d×%d px as %s (%d bytes)", out.Width, out.Height, out.MimeType, out.Bytes)
	}
	return juju.Text(note+".").AddImage(data, out.MimeType).WithStructured(out), nil
}

// decodeBytes is about how many bytes decoding the image of format f and
// header cfg takes, as Go's decoders allocate them.
func decodeBytes(f string, data []byte, cfg image.Config) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	switch f {
	case "png":
		n := px * bytesPerPixel(cfg.ColorModel)
		if interlacedPNG(data) {
			n += n / 2 // the last pass, half the rows, beside the image
		}
		return n
	case "jpeg":
		if sof, ok := jpegFrame(data); ok {
			return sof.bytes()
		}
		return px * 4
	case "gif":
		return px // the first frame, paletted
	}
	return px * 4
}

// decodeHow names how the image is stored, for the refusal's message.
func decodeHow(f string, data []byte) string {
	switch {
	case f == "png" && interlacedPNG(data):
		return "an interlaced PNG"
	case f == "jpeg":
		if sof, ok := jpegFrame(data); ok && sof.progressive {
			return "a progressive JPEG"
		}
	}
	return "a " + strings.ToUpper(f)
}

// bytesPerPixel is the size of a pixel of Go's image for model m.
func bytesPerPixel(m color.Model) int64 {
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 4
}

// interlacedPNG reports whether a PNG's header says Adam7 interlacing.
func interlacedPNG(b []byte) bool {
	// signature (8), IHDR's length and type (8), width, height (8), bit
	// depth, color type, compression, filter, interlace.
	return len(b) > 28 && string(b[12:16]) == "IHDR" && b[28] == 1
}

// jpegSOF is what a JPEG's frame header says of its size.
type jpegSOF struct {
	width, height int64
	progressive   bool
	h, v          []int64 // each component's sampling factors
}

// jpegFrame finds the frame header (SOF0, SOF1 or SOF2, the ones Go
// decodes) before the first scan.
func jpegFrame(b []byte) (jpegSOF, bool) {
	for i := 2; i+4 <= len(b); {
		if b[i] != 0xff {
			return jpegSOF{}, false
		}
		m := b[i+1]
		if m == 0xff { // fill
			i++
			continue
		}
		if m == 0x01 || (m >= 0xd0 && m <= 0xd8) {
			i += 2
			continue
		}
		n := int(b[i+2])<<8 | int(b[i+3])
		if n < 2 {
			return jpegSOF{}, false
		}
		seg := b[i+4 : min(len(b), i+2+n)]
		switch {
		case m == 0xda || m == 0xd9:
			return jpegSOF{}, false
		case m == 0xc0 || m == 0xc1 || m == 0xc2:
			if len(seg) < 6 {
				return jpegSOF{}, false
			}
			sof := jpegSOF{height: int64(seg[1])<<8 | int64(seg[2]), width: int64(seg[3])<<8 | int64(seg[4]), progressive: m == 0xc2}
			for c := range int(seg[5]) {
				if 6+3*c+1 >= len(seg) {
					return jpegSOF{}, false
				}
				hv := seg[6+3*c+1]
				sof.h, sof.v = append(sof.h, max(1, int64(hv>>4))), append(sof.v, max(1, int64(hv&0x0f)))
			}
			return sof, len(sof.h) > 0
		}
		i += 2 + n
	}
	return jpegSOF{}, false
}

// bytes is about what Go's decoder allocates for the frame: each
// component's plane (64 bytes a block), its coefficients when progressive
// (a block of 64 int32s), and a CMYK image beside the planes of four
// components.
func (s jpegSOF) bytes() int64 {
	hmax, vmax := slices.Max(s.h), slices.Max(s.v)
	mx, my := (s.width+8*hmax-1)/(8*hmax), (s.height+8*vmax-1)/(8*vmax)
	var n int64
	for c := range s.h {
		blocks := mx * s.h[c] * my * s.v[c]
		n += blocks * 64
		if s.progressive {
			n += blocks * 256
		}
	}
	if len(s.h) == 4 {
		n += s.width * s.height * 4
	}
	return n
}

func looksSVG(b []byte) bool {
	head := strings.ToLower(string(b[:min(len(b), 1024)]))
	return strings.Contains(head, "<svg")
}

// codec decodes one image format, whole or its header only.
type codec struct {
	decode func(io.Reader) (image.Image, error)
	config func(io.Reader) (image.Config, error)
}

// codecs by the format names sniff returns.
var codecs = map[string]codec{
	"png":  {png.Decode, png.DecodeConfig},
	"jpeg": {jpeg.Decode, jpeg.DecodeConfig},
	"gif":  {gif.Decode, gif.DecodeConfig},
	"webp": {webp.Decode, webp.DecodeConfig},
}

func decodeConfig(f string, b []byte) (image.Config, error) {
	return codecs[f].config(bytes.NewReader(b))
}

func decode(f string, b []byte) (image.Image, error) {
	return codecs[f].decode(bytes.NewReader(b))
}

// shrink scales img to fit maxSide (and, by steps, under maxImageBytes) and
// encodes it: PNG when it has transparency, else JPEG.
func shrink(img image.Image, out *ReadImageResult) ([]byte, string, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	scale := min(1, float64(maxSide)/float64(max(w, h)))
	alpha := !opaque(img)
	for range 6 {
		nw, nh := max(1, int(float64(w)*scale+0.5)), max(1, int(float64(h)*scale+0.5))
		dst := image.NewRGBA(image.Rect(0, 0, nw, nh))
		draw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
		var buf bytes.Buffer
		mime := "image/jpeg"
		var err error
		if alpha {
			mime = "image/png"
			err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, dst)
		} else {
			err = jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 85})
		}
		if err != nil {
			return nil, "", juju.Errorf(abi.Internal, "the scaled image could not be encoded (%v); try another image", err)
		}
		out.Width, out.Height = nw, nh
		if buf.Len() <= maxImageBytes {
			return buf.Bytes(), mime, nil
		}
		scale *= 0.7
	}
	return nil, "", juju.Errorf(abi.TooLarge, "%q stays over 1 MB even scaled down; make a smaller copy first", out.Path)
}

// opaque reports whether every pixel of img is opaque.
func opaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}

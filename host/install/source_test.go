package install

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func archiveOf(headers ...*tar.Header) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, h := range headers {
		tw.WriteHeader(h)
		if h.Typeflag == tar.TypeReg {
			tw.Write(bytes.Repeat([]byte("x"), int(h.Size)))
		}
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

// FuzzUntar feeds arbitrary archives to untar: it never panics, and
// whatever it accepts it writes as plain files directly inside dst, named
// manifest.json or *.wasm, and nowhere else.
func FuzzUntar(f *testing.F) {
	reg := func(name string) *tar.Header {
		return &tar.Header{Name: name, Mode: 0o644, Size: 4, Typeflag: tar.TypeReg}
	}
	f.Add(archiveOf(reg("manifest.json"), reg("plugin.wasm")))
	f.Add(archiveOf(reg("p/manifest.json"), reg("p/plugin.wasm"), reg("p/README")))
	f.Add(archiveOf(reg("../manifest.json")))
	f.Add(archiveOf(reg("/abs/manifest.json")))
	f.Add(archiveOf(&tar.Header{Name: "manifest.json", Linkname: "/etc/passwd", Typeflag: tar.TypeSymlink}))
	f.Add(archiveOf(reg("manifest.json"), reg("x/manifest.json")))
	f.Add([]byte("not gzip"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parent := t.TempDir()
		dst := filepath.Join(parent, "dst")
		os.Mkdir(dst, 0o700)
		if err := untar(bytes.NewReader(data), dst); err != nil {
			return
		}
		entries, _ := os.ReadDir(dst)
		for _, e := range entries {
			if !e.Type().IsRegular() || (e.Name() != "manifest.json" && !strings.HasSuffix(e.Name(), ".wasm")) {
				t.Fatalf("untar wrote %s (%v)", e.Name(), e.Type())
			}
		}
		if out, _ := os.ReadDir(parent); len(out) != 1 {
			t.Fatalf("untar wrote outside dst: %v", out)
		}
	})
}

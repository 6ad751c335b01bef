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
	f.Add(archiveOf(reg("manifest.json"), reg("plugin.wasm"), reg("d0/x.wasm")))
	f.Add([]byte("not gzip"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parent := t.TempDir()
		dst := filepath.Join(parent, "dst")
		os.Mkdir(dst, 0o700)
		if err := untar(bytes.NewReader(data), dst); err != nil {
			return
		}
		entries, _ := os.ReadDir(dst)
		wasm := 0
		for _, e := range entries {
			if !e.Type().IsRegular() || (e.Name() != "manifest.json" && !strings.HasSuffix(e.Name(), ".wasm")) {
				t.Fatalf("untar wrote %s (%v)", e.Name(), e.Type())
			}
			if strings.HasSuffix(e.Name(), ".wasm") {
				wasm++
			}
		}
		if wasm > 1 {
			t.Fatalf("untar kept %d .wasm files", wasm)
		}
		if out, _ := os.ReadDir(parent); len(out) != 1 {
			t.Fatalf("untar wrote outside dst: %v", out)
		}
	})
}

// An archive holds a manifest and one wasm, in one folder at most, and
// unpacks to a bounded size: extra .wasm files were written to the plugin's
// folder (64 MiB of zeros each, 65 KB compressed), kept there after the
// install, and written before the manifest was even checked.
func TestUntarRefusesWhatIsNotAPlugin(t *testing.T) {
	reg := func(name string, size int64) *tar.Header {
		return &tar.Header{Name: name, Mode: 0o644, Size: size, Typeflag: tar.TypeReg}
	}
	many := []*tar.Header{reg("manifest.json", 4), reg("plugin.wasm", 4)}
	for i := range maxArchiveEntries {
		many = append(many, reg("p/README"+strings.Repeat("x", i%50)+string(rune('a'+i%26)), 0))
	}
	for name, c := range map[string]struct {
		archive []byte
		want    string
	}{
		"a second wasm":       {archiveOf(reg("manifest.json", 4), reg("plugin.wasm", 4), reg("x.wasm", 4)), "two .wasm files"},
		"two folders":         {archiveOf(reg("d0/manifest.json", 4), reg("d1/plugin.wasm", 4)), "in d0 and in d1"},
		"a folder and a file": {archiveOf(reg("p/manifest.json", 4), reg("p/plugin.wasm", 4), reg("q/README", 4)), "in p and in q"},
		"too many entries":    {archiveOf(many...), "more than 4096 entries"},
		"a bomb":              {archiveOf(reg("manifest.json", 4), reg("plugin.wasm", 4), reg("big.bin", maxArchiveBytes)), "unpacks to more than"},
	} {
		dst := t.TempDir()
		err := untar(bytes.NewReader(c.archive), dst)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, c.want)
		}
	}
	dst := t.TempDir()
	if err := untar(bytes.NewReader(archiveOf(reg("p/manifest.json", 4), reg("p/plugin.wasm", 4), reg("p/README", 4))), dst); err != nil {
		t.Errorf("a plugin in one folder: %v", err)
	}
}

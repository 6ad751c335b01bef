package core

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/jujutools/juju/internal/memtest"
)

// A core plugin's wasm is the binary's own read-only data, not a copy, and
// Release takes its pages out of the resident set; the bytes read the same
// afterwards.
func TestWasmIsTheBinarysDataAndReleaseDropsIt(t *testing.T) {
	plugins := builtPlugins(t)
	if wasmFiles == nil {
		t.Fatal("the core plugins are built but wasmfiles.go is missing: build them with `make plugins`")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plugins {
		b, err := p.Wasm()
		if err != nil {
			t.Fatal(err)
		}
		if where := mappingOf(t, b); where != exe {
			t.Errorf("%s: the wasm lies in %q, not in the binary %s", p.Manifest.Name, where, exe)
		}
		checkSum(t, p, b) // reads every page
		n, total, err := memtest.Resident(b)
		if err != nil {
			t.Skip(err)
		}
		if n < total*9/10 {
			t.Fatalf("%s: %d of %d pages resident after reading them", p.Manifest.Name, n, total)
		}
		p.Release()
		if n, total, _ := memtest.Resident(b); n != 0 {
			t.Errorf("%s: %d of %d pages still resident after Release", p.Manifest.Name, n, total)
		}
		checkSum(t, p, b)
	}
}

func TestPagesWithin(t *testing.T) {
	buf := make([]byte, 5*4096)
	base := uintptr(unsafe.Pointer(&buf[0]))
	off := int((4096 - base%4096) % 4096) // buf[off:] starts a page
	for _, c := range []struct {
		from, to int
		want     int // whole pages inside
	}{
		{off, off, 0},
		{off, off + 4096, 1},
		{off + 1, off + 4096, 0},
		{off + 1, off + 2*4096 + 5, 1},
		{off, off + 3*4096 - 1, 2},
		{off + 4095, off + 4096 + 1, 0},
	} {
		got := pagesWithin(buf[c.from:c.to], 4096)
		if len(got) != c.want*4096 {
			t.Errorf("[%d:%d]: %d bytes, want %d pages", c.from-off, c.to-off, len(got), c.want)
			continue
		}
		if len(got) > 0 && uintptr(unsafe.Pointer(&got[0]))%4096 != 0 {
			t.Errorf("[%d:%d]: does not start a page", c.from-off, c.to-off)
		}
	}
}

func checkSum(t *testing.T, p Plugin, b []byte) {
	t.Helper()
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != p.Manifest.Wasm.SHA256 {
		t.Fatalf("%s: the wasm hashes to %s, the manifest says %s", p.Manifest.Name, got, p.Manifest.Wasm.SHA256)
	}
}

// mappingOf returns the file /proc/self/maps names for the mapping that
// holds b ("" for an anonymous one, such as the Go heap).
func mappingOf(t *testing.T, b []byte) string {
	t.Helper()
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	addr := uint64(uintptr(unsafe.Pointer(&b[0])))
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		lo, hi, _ := strings.Cut(fields[0], "-")
		from, _ := strconv.ParseUint(lo, 16, 64)
		to, _ := strconv.ParseUint(hi, 16, 64)
		if addr >= from && addr+uint64(len(b)) <= to {
			if len(fields) < 6 {
				return ""
			}
			return fields[5]
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return ""
}

package read

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// A listing's own JSON is encoding/json's, byte for byte, whenever it does
// not decline.
func TestListingAppendJSON(t *testing.T) {
	ents := []abi.Entry{
		{Name: "a.go", Path: "src/a.go", Type: abi.TypeFile, Size: 12, ModTime: "2026-01-02T03:04:05Z"},
		{Name: "sub", Path: "src/sub", Type: abi.TypeDir, ModTime: "2026-01-02T03:04:05Z"},
		{Name: "l", Path: "src/l", Type: abi.TypeSymlink, Size: 7, ModTime: "2026-01-02T03:04:05Z", Target: "src/a.go"},
		{Name: "gone", Path: "src/gone", Type: abi.TypeSymlink},
	}
	for _, l := range []Listing{
		{ListResult: abi.ListResult{Path: "src", Entries: ents, Total: 4}},
		{ListResult: abi.ListResult{Path: "src", Entries: ents[:2], Total: 40, Truncated: true, Hidden: 2, Ignored: 3}, NextOffset: 2},
		{ListResult: abi.ListResult{Path: ".", Entries: []abi.Entry{}, Ignored: 1}},
		{ListResult: abi.ListResult{Path: ".", Entries: []abi.Entry{}, Hidden: 1}, NextOffset: 9},
	} {
		want, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		l.plain = true
		got, ok := l.AppendJSON(nil)
		if !ok || string(got) != string(want) {
			t.Errorf("AppendJSON:\n got %s (%v)\nwant %s", got, ok, want)
		}
	}
	l := Listing{ListResult: abi.ListResult{Path: `a"b`, Entries: []abi.Entry{}}}
	if _, ok := l.AppendJSON(nil); ok {
		t.Error("a listing the host did not call plain was written by hand")
	}
}

// So is a glob result's.
func TestGlobResultAppendJSON(t *testing.T) {
	ents := []abi.Entry{
		{Name: "a.go", Path: "src/a.go", Type: abi.TypeFile, Size: 12, ModTime: "2026-01-02T03:04:05Z"},
		{Name: "l", Path: "src/l", Type: abi.TypeSymlink, Size: 7, ModTime: "2026-01-02T03:04:05Z", Target: "src/a.go"},
	}
	for _, g := range []GlobResult{
		{Pattern: "**/*.go", Path: ".", Files: ents, Total: 2},
		{Pattern: "*", Path: "src", Files: ents[:1], Total: 9, Truncated: true, NextOffset: 1},
		{Pattern: "x", Path: "", Files: []abi.Entry{}},
	} {
		want, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		g.plain = true
		got, ok := g.AppendJSON(nil)
		if !ok || string(got) != string(want) {
			t.Errorf("AppendJSON:\n got %s (%v)\nwant %s", got, ok, want)
		}
	}
}

func TestAppendSizeIsPrintfs(t *testing.T) {
	ns := []int64{0, 1, 1280, 1792, 2304, 1023, 1024, 1025, 1075, 1076, 1126, 1127, 1536, 10188, 10189, 1048575, 1048576, 1<<20 + 1<<19, 5<<30 - 1, 1 << 40, 1 << 50, 1 << 60, math.MaxInt64 / 10, math.MaxInt64}
	for i := int64(1); i < 200_000; i += 37 {
		ns = append(ns, i, i*1024+i%1024, i*1048576/7)
	}
	for _, n := range ns {
		want := fmt.Sprintf("%d B", n)
		if n >= 1024 {
			div, exp := int64(1024), 0
			for m := n / 1024; m >= 1024 && exp < 4; m /= 1024 {
				div *= 1024
				exp++
			}
			want = fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "KMGTP"[exp])
		}
		if got := size(n); got != want {
			t.Fatalf("size(%d) = %q, want %q", n, got, want)
		}
	}
}

// A read's JSON, and read_files', are encoding/json's, byte for byte.
func TestFileTextAppendJSON(t *testing.T) {
	texts := []FileText{
		{Path: "a.go", FirstLine: 1, LineCount: 3, TotalLines: 3, Bytes: 40, Size: 40},
		{Path: "big.txt", FirstLine: 2001, LineCount: 2000, TotalLines: 9000, Truncated: true, NextOffset: 4001, NextByteOffset: 123456, Bytes: 89999, Size: 1 << 30},
		{Path: "min.js", ByteOffset: 90000, NextByteOffset: 180000, Truncated: true, Bytes: 90000, Size: 5 << 20},
		{Path: "logo.png", Size: 2048, Binary: true, FileType: "PNG image", MimeType: "image/png"},
		{Path: "odd \"<name>\" & \\ \u2028 \xff\x01.txt", FirstLine: 1},
		{Path: "win.txt", FirstLine: 1, LineCount: 1, TotalLines: 1, Bytes: 10, Size: 10, Encoding: "utf-16le"},
		{},
	}
	for _, f := range texts {
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := f.AppendJSON(nil)
		if !ok || string(got) != string(want) {
			t.Errorf("AppendJSON:\n got %s (%v)\nwant %s", got, ok, want)
		}
	}
	for _, r := range []ReadFilesResult{
		{Files: []FileRead{{FileText: texts[0]}, {FileText: FileText{Path: ".env"}, Error: &abi.Error{Code: abi.SecretDenied, Message: "a \"secret\" <file>"}}, {FileText: texts[4]}}, Read: 2, Failed: 1},
		{Files: []FileRead{}},
	} {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := r.AppendJSON(nil)
		if !ok || string(got) != string(want) {
			t.Errorf("AppendJSON:\n got %s (%v)\nwant %s", got, ok, want)
		}
	}
}

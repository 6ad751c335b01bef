package fs

import (
	"context"
	"encoding/json"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// BenchmarkGlobGoTree globs **/*_test.go over the Go source tree (about
// 11,500 files), the figure SPEC §11 compares with other servers.
func BenchmarkGlobGoTree(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	p, err := policy.New(policy.Config{Roots: []string{src}})
	if err != nil {
		b.Skip("no Go source tree:", err)
	}
	defer p.Close()
	glob := funcs(p, Options{})[abi.FnFSGlob]
	hdr, _ := json.Marshal(abi.GlobRequest{Pattern: "**/*_test.go", Limit: 1000})
	var res abi.GlobResult
	b.ReportAllocs()
	for b.Loop() {
		out, _ := glob.Handle(context.Background(), hdr, nil)
		res = abi.GlobResult{}
		if err := json.Unmarshal(out, &res); err != nil || res.Error != nil {
			b.Fatal(err, res.Error)
		}
	}
	b.ReportMetric(float64(res.Total), "matches")
}

// BenchmarkGlobGoTreeNative is the baseline for BenchmarkGlobGoTree: the
// same walk and match with filepath.WalkDir, no policy, no JSON.
func BenchmarkGlobGoTreeNative(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(src); err != nil {
		b.Skip("no Go source tree:", err)
	}
	n := 0
	for b.Loop() {
		n = 0
		filepath.WalkDir(src, func(p string, d iofs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, "_test.go") {
				n++
			}
			return nil
		})
	}
	b.ReportMetric(float64(n), "matches")
}

// BenchmarkReads is the host's share of read_files of ten small files:
// one juju_fs_reads call (the reads at once), against ten juju_fs_read
// calls one after the other.
func BenchmarkReads(b *testing.B) {
	f := newFixture(b, Options{})
	var reqs []abi.ReadRequest
	var each [][]byte
	for i := range 10 {
		name := "f" + string(rune('0'+i)) + ".go"
		must(b, writeFile(f.ws, name, strings.Repeat("package x // some code\n", 40)))
		r := abi.ReadRequest{Path: name, Line: 1, Lines: 2000, MaxBytes: 8000}
		reqs = append(reqs, r)
		h, err := json.Marshal(r)
		must(b, err)
		each = append(each, h)
	}
	batch, err := json.Marshal(abi.ReadsRequest{Reads: reqs})
	must(b, err)
	ctx := context.Background()
	b.Run("batch", func(b *testing.B) {
		for b.Loop() {
			if h, _ := f.fns[abi.FnFSReads](ctx, batch, nil); strings.Contains(string(h), `"error"`) {
				b.Fatal(string(h))
			}
		}
	})
	b.Run("each", func(b *testing.B) {
		for b.Loop() {
			for _, h := range each {
				if out, _ := f.fns[abi.FnFSRead](ctx, h, nil); strings.Contains(string(out), `"error"`) {
					b.Fatal(string(out))
				}
			}
		}
	})
}

// BenchmarkLeftOutGoTree is the walk search_code does over Go's source
// tree before it starts rg (fs.LeftOut): its cost is added to every
// search of a folder.
func BenchmarkLeftOutGoTree(b *testing.B) {
	p, r := resolvedRoot(b, filepath.Join(runtime.GOROOT(), "src"))
	var out []byte
	var e *abi.Error
	for b.Loop() {
		if out, e = LeftOut(context.Background(), p, r, 4096); e != nil {
			b.Fatal(e)
		}
	}
	b.ReportMetric(float64(len(out)), "bytes")
}

// BenchmarkList is the host's share of list_directory of a folder of 80
// entries (20 folders, 60 small files), packed as the SDK asks for it:
// the make bench P4 line's folder.
func BenchmarkList(b *testing.B) {
	setRacyWindow(b, 0) // the fixture's ignore files are new: count them settled
	f := newFixture(b, Options{})
	dir := filepath.Join(f.ws, "list80")
	for i := range 80 {
		name := filepath.Join(dir, fmt.Sprintf("file%02d.go", i))
		if i%4 == 0 {
			must(b, os.MkdirAll(filepath.Join(dir, fmt.Sprintf("dir%02d", i)), 0o755))
			continue
		}
		must(b, os.MkdirAll(dir, 0o755))
		must(b, os.WriteFile(name, []byte("package list\n"), 0o644))
	}
	hdr, err := json.Marshal(abi.ListRequest{Path: "list80", Packed: true})
	must(b, err)
	list := f.fns[abi.FnFSList]
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if h, body := list(ctx, hdr, nil); len(body) == 0 {
			b.Fatal(string(h))
		}
	}
}

// BenchmarkLeftOutsGoTree is BenchmarkLeftOutGoTree walking again with
// what the last walk found (LeftOuts), the tree unchanged.
func BenchmarkLeftOutsGoTree(b *testing.B) {
	p, r := resolvedRoot(b, filepath.Join(runtime.GOROOT(), "src"))
	var c LeftOuts
	var out []byte
	var e *abi.Error
	for b.Loop() {
		if out, e = c.LeftOut(context.Background(), p, r, 4096); e != nil {
			b.Fatal(e)
		}
	}
	b.ReportMetric(float64(len(out)), "bytes")
}

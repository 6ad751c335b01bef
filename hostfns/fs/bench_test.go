package fs

import (
	"context"
	"encoding/json"
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

package bench

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/host/pluginbuild"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/test/bench/internal/workload"
)

// BenchmarkReadFileBesideLoadedModules is a tiny read_file in process
// while every core plugin and nine more modules (test plugins, standing for
// installed ones) are loaded, with juju stdio's collector settings: GC
// percent 50 and a soft memory limit of 64 MiB. "fixed" keeps the limit at
// those 64 MiB whatever is loaded; "scaled" adds twice the wasm of every
// module loaded (plugin.SetSoftMemoryLimit), as juju does. It reports the
// collections per call: with a live heap near a fixed limit, the collector
// runs after every few allocations.
func BenchmarkReadFileBesideLoadedModules(b *testing.B) {
	const base = 64 << 20
	ctx := context.Background()
	h, err := workload.NewHost(workspaceRoot(b), filepath.Join(tmp, "home"))
	if workload.IsNotBuilt(err) {
		b.Skipf("core plugins not built (run `make plugins`): %v", err)
	}
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close(ctx)
	// project_overview loads core-discover; read_image core-image (a call
	// it refuses loads it all the same).
	for _, c := range []struct{ tool, args string }{{"read_file", `{"path":"go.mod"}`}, {"project_overview", `{}`}, {"read_image", `{"path":"none.png"}`}} {
		if _, err := h.Call(ctx, host.Request{Client: workload.Client, Tool: c.tool, Args: []byte(c.args)}); err != nil {
			b.Fatal(err)
		}
	}
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: filepath.Join(tmp, "extra-cache"), Timeout: 20 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"echo", "reader", "writer", "tiers", "gated", "shared", "bulk", "nogrant", "trap"} {
		dir := pluginbuild.ForTest(b, filepath.Join("..", "..", "plugins", "testplugins", name))
		data, err := os.ReadFile(filepath.Join(dir, manifest.FileName))
		if err != nil {
			b.Fatal(err)
		}
		m, err := manifest.Decode(data)
		if err != nil {
			b.Fatal(err)
		}
		wasm := filepath.Join(dir, m.Wasm.File)
		p := rt.Load(m, func() ([]byte, error) { return os.ReadFile(wasm) }, nil, nil)
		if err := p.Ready(ctx); err != nil {
			b.Fatal(err)
		}
		defer p.Close(ctx)
	}

	defer debug.SetGCPercent(debug.SetGCPercent(50))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer plugin.SetSoftMemoryLimit(-1)
	args := workload.Raw(workload.ReadFileArgs)
	gcs := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/live:bytes"}}
	for _, mode := range []string{"fixed", "scaled"} {
		b.Run(mode, func(b *testing.B) {
			if mode == "fixed" {
				plugin.SetSoftMemoryLimit(-1)
				debug.SetMemoryLimit(base)
			} else {
				plugin.SetSoftMemoryLimit(base)
			}
			runtime.GC()
			metrics.Read(gcs)
			before, live := gcs[0].Value.Uint64(), gcs[1].Value.Uint64()
			for b.Loop() {
				pluginCall(b, h, "read_file", args)
			}
			metrics.Read(gcs)
			b.ReportMetric(float64(gcs[0].Value.Uint64()-before)/float64(b.N), "gc/op")
			b.ReportMetric(float64(live)/(1<<20), "live-MiB")
			b.ReportMetric(float64(debug.SetMemoryLimit(-1))/(1<<20), "limit-MiB")
		})
	}
}

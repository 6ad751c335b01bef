package plugin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// bulkSizes are the payloads of the transport benchmarks.
var bulkSizes = []int{100 << 10, 1 << 20}

// bulkFuncs are stand-ins for the host functions the bulk plugins call:
// they send size bytes (state_get, fs_read) or take them (state_put), and
// keep nothing, so that what is timed is the transport.
func bulkFuncs(size *int) []hostfns.Func {
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = byte('a' + i%26)
	}
	return []hostfns.Func{
		{Name: abi.FnLog, Handle: func(context.Context, []byte, []byte) ([]byte, []byte) { return []byte(`{}`), nil }},
		{Name: abi.FnStateGet, Capability: abi.CapState, Handle: func(context.Context, []byte, []byte) ([]byte, []byte) {
			return []byte(`{"found":true}`), buf[:*size]
		}},
		{Name: abi.FnStatePut, Capability: abi.CapState, Handle: func(_ context.Context, _, body []byte) ([]byte, []byte) {
			if len(body) != *size {
				return []byte(`{"error":{"code":"INTERNAL","message":"short"}}`), nil
			}
			return []byte(`{}`), nil
		}},
		{Name: abi.FnFSRead, Capability: abi.CapFSRead, Handle: func(context.Context, []byte, []byte) ([]byte, []byte) {
			return []byte(`{"path":"bulk","size":` + strconv.Itoa(*size) + `,"modTime":""}`), buf[:*size]
		}},
	}
}

// BenchmarkBulk moves size bytes across the wasm boundary per call, through
// a host function: abi=2 is the channel (in: host to guest, out: guest to
// host), abi=1 the Extism kernel convention (in only: the kernel test
// plugin reading through juju_fs_read). MB/s counts the payload; each call
// also pays for one tool call (about what /empty costs).
func BenchmarkBulk(b *testing.B) {
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	size := new(int)
	fns := bulkFuncs(size)
	ctx := context.Background()
	load := func(name string) *plugin.Plugin {
		m, wasm := built(b, name)
		p := rt.Load(m, func() ([]byte, error) { return wasm, nil }, m.Capabilities, fns)
		b.Cleanup(func() { p.Close(context.Background()) })
		if err := p.Warm(ctx); err != nil {
			b.Fatal(err)
		}
		return p
	}
	bulk, kernel := load("bulk"), load("kernel")
	run := func(b *testing.B, p *plugin.Plugin, tool string, args string, n int) {
		*size = n
		caller := hostfns.Caller{Plugin: p.Name(), Tool: tool, Tier: abi.TierRead}
		want := strconv.Itoa(n)
		b.SetBytes(int64(n))
		cpu := cpuTime()
		for b.Loop() {
			res := p.Call(ctx, caller, tool, json.RawMessage(args))
			if res.Error != nil || len(res.Content) != 1 || res.Content[0].Text != want {
				b.Fatalf("%+v %+v", res.Error, res.Content)
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	}
	b.Run("empty", func(b *testing.B) {
		run(b, bulk, "test_bulk", `{"direction":"in"}`, 0)
	})
	for _, n := range bulkSizes {
		b.Run(fmt.Sprintf("abi=2/in/%dKiB", n>>10), func(b *testing.B) {
			run(b, bulk, "test_bulk", `{"direction":"in"}`, n)
		})
		b.Run(fmt.Sprintf("abi=2/out/%dKiB", n>>10), func(b *testing.B) {
			run(b, bulk, "test_bulk", fmt.Sprintf(`{"direction":"out","bytes":%d}`, n), n)
		})
		b.Run(fmt.Sprintf("abi=1/in/%dKiB", n>>10), func(b *testing.B) {
			run(b, kernel, "test_kernel_read", `{"path":"bulk","count":true}`, n)
		})
	}
}

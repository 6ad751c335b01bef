package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/host/pluginbuild"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// bulkBytes is what one bulk call moves.
const bulkBytes = 1 << 20

// bulk are lines B1 (host to guest) and B2 (guest to host): bytes through
// a plugin, in this process. The test plugin testplugins/bulk, built here,
// fetches bulkBytes with juju_state_get or stores them with juju_state_put;
// stand-ins answer both and keep nothing, so the figure is the transport
// (ABI 2, the channel) plus one tool call. The baseline copies the same
// bytes natively (one allocation and copy), for scale.
func (b *bench) bulk() []row {
	mk := func(id, dir string) row {
		return row{ID: id, Work: fmt.Sprintf("bulk bytes through a plugin, %s, 1 MiB per call", dir), Unit: "MB/s",
			Target:  target{Limit: 200, AtLeast: true},
			Via:     "in-process host/plugin call of testplugins/bulk (juju_state_get / juju_state_put answered by stand-ins), one tool call per MiB, median",
			Against: "a native allocation and copy of the same MiB"}
	}
	b1, b2 := mk("B1", "host → guest"), mk("B2", "guest → host")
	fail := func(err error) []row { return []row{b1.with(nil, nil, err), b2.with(nil, nil, err)} }
	ctx := context.Background()
	b.progress("building testplugins/bulk")
	src, err := filepath.Abs(filepath.Join(filepath.Dir(b.opts.peer), "..", "..", "plugins", "testplugins", "bulk"))
	if err != nil {
		return fail(err)
	}
	out := filepath.Join(b.tmp, "bulk-plugin")
	m, err := pluginbuild.Build(ctx, src, out)
	if err != nil {
		return fail(err)
	}
	wasm, err := os.ReadFile(filepath.Join(out, m.Name, pluginbuild.WasmFile))
	if err != nil {
		return fail(err)
	}
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: filepath.Join(b.tmp, "bulk-cache"), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return fail(err)
	}
	defer rt.Close(ctx)
	data := make([]byte, bulkBytes)
	for i := range data {
		data[i] = byte('a' + i%26)
	}
	fns := []hostfns.Func{
		{Name: abi.FnLog, Handle: func(context.Context, []byte, []byte) ([]byte, []byte) { return []byte(`{}`), nil }},
		{Name: abi.FnStateGet, Capability: abi.CapState, Handle: func(context.Context, []byte, []byte) ([]byte, []byte) {
			return []byte(`{"found":true}`), data
		}},
		{Name: abi.FnStatePut, Capability: abi.CapState, Handle: func(_ context.Context, _, body []byte) ([]byte, []byte) {
			if len(body) != bulkBytes {
				return []byte(`{"error":{"code":"INTERNAL","message":"short"}}`), nil
			}
			return []byte(`{}`), nil
		}},
	}
	p := rt.Load(m, func() ([]byte, error) { return wasm, nil }, m.Capabilities, fns)
	defer p.Close(ctx)
	if err := p.Warm(ctx); err != nil {
		return fail(err)
	}
	caller := hostfns.Caller{Plugin: m.Name, Tool: "test_bulk", Tier: abi.TierRead}
	want := strconv.Itoa(bulkBytes)
	call := func(args string) (time.Duration, error) {
		t := time.Now()
		res := p.Call(ctx, caller, "test_bulk", json.RawMessage(args))
		d := time.Since(t)
		if res.Error != nil {
			return 0, res.Error
		}
		if len(res.Content) != 1 || res.Content[0].Text != want {
			return 0, fmt.Errorf("test_bulk answered %+v", res.Content)
		}
		return d, nil
	}
	copyOnce := func() time.Duration {
		t := time.Now()
		dst := make([]byte, bulkBytes)
		copy(dst, data)
		d := time.Since(t)
		if dst[bulkBytes-1] != data[bulkBytes-1] {
			panic("copy")
		}
		return d
	}
	runs := max(50, b.opts.runs*5)
	b.progress("bulk 1 MiB in and out, %d calls each", runs)
	measure := func(args string) ([]time.Duration, []time.Duration, error) {
		for range 5 { // warm the instance
			if _, err := call(args); err != nil {
				return nil, nil, err
			}
		}
		var js, ns []time.Duration
		for range runs {
			d, err := call(args)
			if err != nil {
				return nil, nil, err
			}
			js = append(js, d)
			ns = append(ns, copyOnce())
		}
		return js, ns, nil
	}
	rate := func(r row, js, ns []time.Duration, err error) row {
		if err != nil {
			return r.with(nil, nil, err)
		}
		r.Juju, r.Baseline = throughput(js), throughput(ns)
		r.judge()
		return r
	}
	js, ns, err := measure(`{"direction":"in"}`)
	b1 = rate(b1, js, ns, err)
	js, ns, err = measure(fmt.Sprintf(`{"direction":"out","bytes":%d}`, bulkBytes))
	b2 = rate(b2, js, ns, err)
	return []row{b1, b2}
}

// throughput summarises per-call times of bulkBytes each in MB/s: the
// median is the rate of the median time, the minimum that of the slowest
// call, p90 that of the fastest tenth.
func throughput(ds []time.Duration) *stat {
	s := slices.Clone(ds)
	slices.Sort(s)
	mbs := func(d time.Duration) float64 { return float64(bulkBytes) / 1e6 / d.Seconds() }
	return &stat{Median: mbs(median(s)), Min: mbs(s[len(s)-1]), P90: mbs(s[len(s)/10]), N: len(s)}
}

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/test/bench/internal/native"
	"github.com/jujutools/juju/test/bench/internal/workload"
)

// inProcess is line 6: a plugin call (host.Host.Call on the core read
// plugin, in this process) against the same read_file done by a native
// function that reads the file and formats it the same way.
func (b *bench) inProcess() row {
	r := row{ID: "6", Work: "plugin call vs native, in-process (tiny read_file)", Unit: "ms", Target: target{Limit: 2, OnRatio: true},
		Via:     "in-process host.Host.Call (host/plugin + hostfns/fs + host/policy), batches of calls timed together, median of per-call times",
		Against: "native Go function: decode the arguments, read the file, format text and structured content alike"}
	b.progress("in-process plugin call vs native, %d rounds of %d calls each", b.opts.runs, inProcBatch)
	ctx := context.Background()
	h, err := workload.NewHost(b.ws, b.warmHome)
	if err != nil {
		if workload.IsNotBuilt(err) {
			err = fmt.Errorf("%w (the report embeds the plugins it was compiled with: run `make plugins` first)", err)
		}
		r.Err = err.Error()
		return r
	}
	defer h.Close(ctx)
	nat, err := native.New(b.ws)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	args := workload.Raw(workload.ReadFileArgs)
	got, err := workload.Call(ctx, h, "read_file", args)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	want, err := nat.Call("read_file", args)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	if got != want.Text {
		r.Note = fmt.Sprintf("the answers differ: plugin %q, native %q", got, want.Text)
	}
	plugin := func() error {
		res, err := h.Call(ctx, host.Request{Client: workload.Client, Tool: "read_file", Args: args})
		if err == nil && res.Error != nil {
			err = res.Error
		}
		return err
	}
	nativeCall := func() error {
		_, err := nat.Call("read_file", args)
		return err
	}
	// Warm both paths (instance pool, page cache, allocator).
	if _, err := batch(plugin, inProcBatch); err != nil {
		r.Err = err.Error()
		return r
	}
	var ps, ns sample
	for range b.opts.runs {
		d, err := batch(plugin, inProcBatch)
		if err != nil {
			r.Err = err.Error()
			return r
		}
		ps = append(ps, d)
		if d, err = batch(nativeCall, inProcBatch); err != nil {
			r.Err = err.Error()
			return r
		}
		ns = append(ns, d)
	}
	return r.with(ps, ns, nil)
}

// inProcBatch is how many calls one in-process timing covers: single calls
// are too short for the clock to be fair to both.
const inProcBatch = 200

// batch runs f n times and returns the time per call.
func batch(f func() error, n int) (time.Duration, error) {
	t := time.Now()
	for range n {
		if err := f(); err != nil {
			return 0, err
		}
	}
	return time.Since(t) / time.Duration(n), nil
}

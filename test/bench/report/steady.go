package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jujutools/juju/test/bench/internal/native"
	"github.com/jujutools/juju/test/bench/internal/workload"
)

// live starts a server for steady-state calls and performs the handshake.
// It stays up until the end of the report, whose last line reads its peak
// memory.
func (b *bench) live(c command) (*server, error) {
	s, err := start(c)
	if err != nil {
		return nil, err
	}
	b.servers = append(b.servers, s)
	if err := s.initialize(); err != nil {
		return nil, s.fail(err)
	}
	return s, nil
}

// timedCall sends one tools/call and returns how long its answer took to
// arrive whole (the report's own decoding of it is not counted: for a
// 100 KB file, it is a millisecond of the report's time, not the server's).
func timedCall(s *server, params json.RawMessage) (time.Duration, error) {
	t := time.Now()
	raw, err := s.request("tools/call", params)
	d := s.answered.Sub(t)
	if err != nil {
		return 0, s.fail(err)
	}
	if bytes.Contains(raw, []byte(`"isError":true`)) {
		return 0, fmt.Errorf("%s: tool error: %.300s", s.name, raw)
	}
	return d, nil
}

// perCall measures up to calls calls on each server, after a warm-up, in
// alternating blocks so that noise falls on both alike. It stops early once
// maxTime has passed and each side has minCalls samples.
func (b *bench) perCall(j, base *server, params json.RawMessage) (sample, sample, error) {
	return b.perCallEach(j, params, base, params)
}

// steadyReads are lines 3 and 4: one process each, many calls, the median
// time per call.
func (b *bench) steadyReads() []row {
	r3 := row{ID: "3", Work: "tiny read_file, per call over stdio", Unit: "ms", Target: target{Limit: 0.4},
		Via: "one warm process, sequential calls, raw JSON-RPC over stdio", Against: "native server, same calls"}
	r4 := row{ID: "4", Work: "read_files of 10 small files, per call", Unit: "ms", Target: target{Limit: 1.5},
		Via: "one warm process, sequential calls, raw JSON-RPC over stdio", Against: "native server, same calls"}
	j, err := b.live(b.juju(b.warmHome, b.ws))
	if err != nil {
		return []row{r3.with(nil, nil, err), r4.with(nil, nil, err)}
	}
	base, err := b.live(b.baseline(b.ws))
	if err != nil {
		return []row{r3.with(nil, nil, err), r4.with(nil, nil, err)}
	}
	b.jujuRead, b.baseRead = j, base
	b.progress("steady read_file, up to %d calls each", b.opts.calls)
	r3 = r3.with(b.perCall(j, base, readFileParams))
	b.progress("steady read_files (10 files), up to %d calls each", b.opts.calls)
	r4 = r4.with(b.perCall(j, base, readFilesParams))
	return []row{r3, r4}
}

// globTotal reads the total of a glob_files answer's structured content.
func globTotal(raw json.RawMessage) int {
	var res struct {
		Structured struct {
			Total int `json:"total"`
		} `json:"structuredContent"`
	}
	json.Unmarshal(raw, &res)
	return res.Structured.Total
}

// globs are line 5 (juju over stdio vs the same glob natively in-process)
// and 5b (juju vs the native server, both over stdio).
func (b *bench) globs() []row {
	work := fmt.Sprintf("glob %s over Go's tree", workload.GlobPattern)
	r5 := row{ID: "5", Work: work, Unit: "ms", Target: target{Limit: 60},
		Via: "one warm process rooted at the Go tree, raw JSON-RPC over stdio", Against: "in-process filepath.WalkDir + doublestar.Match + stat of each match, sorted"}
	r5b := row{ID: "5b", Work: work + ", vs native server", Unit: "ms", Target: target{Limit: 60},
		Via: r5.Via, Against: "native server rooted at the Go tree, over stdio"}
	if b.opts.gotree == "" {
		r5.Err, r5b.Err = "no Go tree: pass -gotree", "no Go tree: pass -gotree"
		return []row{r5, r5b}
	}
	fail := func(err error) []row { return []row{r5.with(nil, nil, err), r5b.with(nil, nil, err)} }
	nat, err := native.New(b.opts.gotree)
	if err != nil {
		return fail(err)
	}
	j, err := b.live(b.juju(b.warmHome, b.opts.gotree))
	if err != nil {
		return fail(err)
	}
	base, err := b.live(b.baseline(b.opts.gotree))
	if err != nil {
		return fail(err)
	}
	b.progress("glob over %s, n=%d each (juju, native server, in-process)", b.opts.gotree, b.opts.globRuns)
	// Warm the page cache and both processes; note the match counts.
	var totals [3]int
	for i, s := range []*server{j, base} {
		raw, err := s.request("tools/call", globParams)
		if err != nil {
			return fail(s.fail(err))
		}
		totals[i] = globTotal(raw)
	}
	matches, err := nat.Glob(".", workload.GlobPattern)
	if err != nil {
		return fail(err)
	}
	totals[2] = len(matches)
	var js, bs, ns sample
	for range b.opts.globRuns {
		d, err := timedCall(j, globParams)
		if err != nil {
			return fail(err)
		}
		js = append(js, d)
		if d, err = timedCall(base, globParams); err != nil {
			return fail(err)
		}
		bs = append(bs, d)
		t := time.Now()
		if _, err := nat.Call("glob_files", workload.Raw(workload.GlobArgs)); err != nil {
			return fail(err)
		}
		ns = append(ns, time.Since(t))
	}
	note := fmt.Sprintf("matches: juju %d, native server %d, in-process %d (juju skips .gitignored files and secrets)", totals[0], totals[1], totals[2])
	r5, r5b = r5.with(js, ns, nil), r5b.with(js, bs, nil)
	r5.Note, r5b.Note = note, note
	return []row{r5, r5b}
}

// memory is line 8: the peak RSS (VmHWM) of the steady-state juju
// processes, after every core plugin has served calls in them.
func (b *bench) memory() row {
	r := row{ID: "8", Work: "peak RSS, every core plugin warm", Unit: "MB", Target: target{Limit: 80},
		Via: "VmHWM from /proc of the steady-state processes, every plugin warmed at start and every read tool called (the largest of every steady-state juju process of the report: workspace, Go tree, search, commands, edit, overview)", Against: "native server processes, same calls"}
	if b.jujuRead == nil {
		r.Err = "no steady-state juju process to measure"
		return r
	}
	// Every read tool once more, so that each has run here.
	for _, s := range []*server{b.jujuRead, b.baseRead} {
		for _, p := range everyTool {
			if _, err := s.call(p); err != nil {
				r.Err = err.Error()
				return r
			}
		}
	}
	peak := func(name string) (float64, string, error) {
		var top int64
		var each []string
		for _, s := range b.servers {
			if s.name != name {
				continue
			}
			v, err := s.peakRSS()
			if err != nil {
				return 0, "", err
			}
			each = append(each, fmt.Sprintf("%.1f", float64(v)/(1<<20)))
			top = max(top, v)
		}
		return float64(top) / (1 << 20), fmt.Sprint(each), nil
	}
	jm, jeach, err := peak("juju")
	if err != nil {
		r.Err = err.Error()
		return r
	}
	bm, beach, err := peak("baseline")
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.Juju, r.Baseline = single(jm), single(bm)
	r.Note = fmt.Sprintf("each process, MB: juju %s, baseline %s", jeach, beach)
	if b.peer != nil {
		if v, err := b.peer.peakRSS(); err == nil {
			r.Note += fmt.Sprintf("; the peer server (Node) %.1f MB", float64(v)/(1<<20))
		}
	}
	r.judge()
	return r
}

// everyTool calls each read tool once on the workspace.
var everyTool = []json.RawMessage{
	callParams("list_directory", map[string]any{"path": "."}),
	callParams("read_file", workload.ReadFileArgs),
	callParams("read_files", workload.ReadFilesArgs),
	callParams("file_info", map[string]any{"path": workload.TinyFile}),
	callParams("glob_files", map[string]any{"pattern": "**/*"}),
}

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/jujutools/juju/test/bench/internal/workload"
)

// The peer is the reference MCP filesystem server
// (@modelcontextprotocol/server-filesystem, Node, no isolation, no journal),
// pinned by test/bench/peer/package-lock.json and installed there with
// `npm ci` when missing. SPEC §11 asks juju to be at least 1.5x faster than
// it on the lines below, measured in the same run.

// peerScript is the server's entry point under the peer folder.
const peerScript = "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"

// peerMaxRatio is juju's median over the peer's that each peer line allows.
const peerMaxRatio = 1 / 1.5

// ensurePeer returns the peer's entry point, running `npm ci` in dir when
// it is not installed.
func (b *bench) ensurePeer() (string, error) {
	dir, err := filepath.Abs(b.opts.peer)
	if err != nil {
		return "", err
	}
	script := filepath.Join(dir, peerScript)
	if _, err := os.Stat(script); err == nil {
		return script, nil
	}
	if _, err := exec.LookPath("node"); err != nil {
		return "", fmt.Errorf("the peer needs node: %w", err)
	}
	b.progress("installing the peer server: npm ci in %s", dir)
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm ci in %s: %w\n%s", dir, err, out)
	}
	if _, err := os.Stat(script); err != nil {
		return "", fmt.Errorf("npm ci did not install %s: %w", peerScript, err)
	}
	return script, nil
}

// peerCommand is the command of the peer server over root.
func peerCommand(script, root string) command {
	return command{name: "peer", bin: "node", args: []string{script, root}}
}

// peerLine is one line of juju against the peer: the same work asked of
// each in its own words.
type peerLine struct {
	id, work string
	limit    float64         // ms
	juju     json.RawMessage // tools/call params
	peer     json.RawMessage
	calls    int // 0: the report's -calls
}

// peerLines are the SPEC §11 lines juju must win by 1.5x against the peer.
func (b *bench) peerLines(editWS string) []peerLine {
	abs := func(rel string) string { return filepath.Join(b.ws, filepath.FromSlash(rel)) }
	smallAbs := make([]string, len(workload.SmallFiles))
	for i, f := range workload.SmallFiles {
		smallAbs[i] = abs(f)
	}
	return []peerLine{
		{id: "P1", work: "tiny read_file", limit: 0.4,
			juju: callParams("read_file", workload.ReadFileArgs),
			peer: callParams("read_text_file", map[string]any{"path": abs(workload.TinyFile)})},
		{id: "P2", work: "read_file of a 100 KB file", limit: 3,
			juju: callParams("read_file", workload.LargeReadArgs),
			peer: callParams("read_text_file", map[string]any{"path": abs(workload.LargeFile)})},
		{id: "P3", work: "read_files of 10 small files", limit: 1.5,
			juju: callParams("read_files", workload.ReadFilesArgs),
			peer: callParams("read_multiple_files", map[string]any{"paths": smallAbs})},
		{id: "P4", work: fmt.Sprintf("list_directory of %d entries", workload.ListEntries), limit: 1,
			juju: callParams("list_directory", map[string]any{"path": workload.ListDir}),
			peer: callParams("list_directory", map[string]any{"path": abs(workload.ListDir)})},
	}
}

// peers are the P lines: juju and the peer server over stdio, one warm
// process each, calls alternating in blocks; and P5, edit_file, journaled
// in juju, a plain rewrite in the peer.
func (b *bench) peers() []row {
	lines := b.peerLines("")
	rows := make([]row, 0, len(lines)+1)
	mk := func(l peerLine) row {
		return row{ID: l.id, Work: l.work + ", per call over stdio, vs the peer", Unit: "ms",
			Target:  target{Limit: l.limit, MaxRatio: peerMaxRatio},
			Via:     "one warm juju stdio process, sequential calls, raw JSON-RPC over stdio",
			Against: "the reference filesystem server (npx @modelcontextprotocol/server-filesystem, pinned in test/bench/peer), same calls in its words"}
	}
	edit := row{ID: "P5", Work: "edit_file, per call over stdio, vs the peer", Unit: "ms",
		Target:  target{Limit: 3, MaxRatio: peerMaxRatio},
		Via:     "one warm juju stdio process in trusted mode; every edit journaled and crash-safe (intent + pre-image, temp file + fsync + rename, done record)",
		Against: "the reference filesystem server's edit_file (read, replace, write; no journal, no fsync)"}
	fail := func(err error) []row {
		var out []row
		for _, l := range lines {
			out = append(out, mk(l).with(nil, nil, err))
		}
		return append(out, edit.with(nil, nil, err))
	}
	script, err := b.ensurePeer()
	if err != nil {
		return fail(err)
	}
	j, err := b.live(b.juju(b.warmHome, b.ws))
	if err != nil {
		return fail(err)
	}
	p, err := b.live(peerCommand(script, b.ws))
	if err != nil {
		return fail(err)
	}
	b.peer = p
	for _, l := range lines {
		b.progress("%s %s: juju vs the peer, up to %d calls each", l.id, l.work, b.opts.calls)
		js, ps, err := b.perCallEach(j, l.juju, p, l.peer)
		rows = append(rows, mk(l).with(js, ps, err))
	}
	return append(rows, b.peerEdit(edit, script))
}

// peerEdit is P5: the same replacement, back and forth, in a file of each
// server's own workspace.
func (b *bench) peerEdit(r row, script string) row {
	ws := filepath.Join(b.tmp, "peer-edit")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return r.with(nil, nil, err)
	}
	for _, f := range []string{"juju.go", "peer.go"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("package edit\n\nvar counter = 0\n"), 0o644); err != nil {
			return r.with(nil, nil, err)
		}
	}
	c := b.juju(b.warmHome, ws)
	c.args = append(c.args, "--mode", "trusted")
	j, err := b.live(c)
	if err != nil {
		return r.with(nil, nil, err)
	}
	p, err := b.live(peerCommand(script, ws))
	if err != nil {
		return r.with(nil, nil, err)
	}
	n := min(b.opts.calls, 400)
	b.progress("P5 edit_file: juju (journaled) vs the peer, %d calls each", n)
	var js, ps sample
	for i := range n {
		old, new := fmt.Sprintf("counter = %d\n", i), fmt.Sprintf("counter = %d\n", i+1)
		jd, err := timedCall(j, callParams("edit_file", map[string]any{"path": "juju.go", "oldString": old, "newString": new}))
		if err != nil {
			return r.with(nil, nil, err)
		}
		pd, err := timedCall(p, callParams("edit_file", map[string]any{"path": filepath.Join(ws, "peer.go"), "edits": []map[string]string{{"oldText": old, "newText": new}}}))
		if err != nil {
			return r.with(nil, nil, err)
		}
		if i >= n/10 { // the first tenth warms up
			js, ps = append(js, jd), append(ps, pd)
		}
	}
	return r.with(js, ps, nil)
}

// perCallEach is perCall with each server's own params: calls alternate in
// blocks, after a warm-up, until -calls or -maxtime (at least 100 each).
func (b *bench) perCallEach(j *server, jp json.RawMessage, o *server, op json.RawMessage) (sample, sample, error) {
	const block, minCalls = 50, 100
	warmup := min(200, b.opts.calls/4+1)
	var js, os sample
	began := time.Now()
	for i := 0; i < warmup+b.opts.calls; i += block {
		if len(js) >= minCalls && time.Since(began) > b.opts.maxTime {
			b.progress("  time cap reached after %d calls each", len(js))
			break
		}
		for _, side := range []struct {
			s      *server
			params json.RawMessage
			out    *sample
		}{{j, jp, &js}, {o, op, &os}} {
			for k := 0; k < block; k++ {
				d, err := timedCall(side.s, side.params)
				if err != nil {
					return nil, nil, err
				}
				if i+k >= warmup {
					*side.out = append(*side.out, d)
				}
			}
		}
	}
	if len(js) == 0 {
		return nil, nil, errors.New("no calls measured")
	}
	return js, os, nil
}

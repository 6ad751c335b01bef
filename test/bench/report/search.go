package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// The search lines: a regular expression over Go's tree, every match
// returned (the cap is far above the 85 or so matching lines), so juju and
// rg do the same work.
const searchPattern = `func \w+Context\(`

// searchSubtree is the folder of Go's tree line 5d searches: it was chosen
// when juju's own search ran inside the plugin, too slowly for the whole
// tree, and is kept so that the line stays comparable with earlier runs.
const searchSubtree = "net"

func searchParams(path string) json.RawMessage {
	return callParams("search_code", map[string]any{"pattern": searchPattern, "path": path, "maxResults": 2000, "caseSensitive": true, "timeoutMs": 25000})
}

// searchCount reads the matching lines of a search_code answer.
func searchCount(raw json.RawMessage) (matches int, engine string) {
	var res struct {
		Structured struct {
			Matches int    `json:"matches"`
			Engine  string `json:"engine"`
			Partial bool   `json:"partial"`
		} `json:"structuredContent"`
	}
	json.Unmarshal(raw, &res)
	if res.Structured.Partial {
		res.Structured.Engine += ", partial: ran out of time"
	}
	return res.Structured.Matches, res.Structured.Engine
}

// searches are lines 5c (search_code through ripgrep on the host) and 5d
// (the host's own search, juju started without rg on PATH), both against
// rg run directly on the same tree in the same run.
func (b *bench) searches() []row {
	work := fmt.Sprintf("search_code %q over Go's tree", searchPattern)
	r5c := row{ID: "5c", Work: work + " (ripgrep path)", Unit: "ms", Target: target{Limit: 1.2, OnRatio: true},
		Via: "one warm process rooted at the Go tree, raw JSON-RPC over stdio, every match returned", Against: "`rg -n PATTERN .` run directly in the tree, output read through a pipe"}
	r5d := row{ID: "5d", Work: fmt.Sprintf("search_code %q over Go's src/%s (juju's own search, no rg)", searchPattern, searchSubtree), Unit: "ms", Target: target{Limit: 1.2, OnRatio: true},
		Via: "as 5c, juju started with no rg on PATH: the host walks as glob_files does, matches with Go's regexp and checks every line as it checks rg's; path " + searchSubtree, Against: "`rg -n PATTERN " + searchSubtree + "` run directly in the tree"}
	rg, err := exec.LookPath("rg")
	if err != nil {
		r5c.Err, r5d.Err = "rg is not installed (make deps)", "rg is not installed (make deps)"
		return []row{r5c, r5d}
	}
	if b.opts.gotree == "" {
		r5c.Err, r5d.Err = "no Go tree: pass -gotree", "no Go tree: pass -gotree"
		return []row{r5c, r5d}
	}
	direct := func(path string) (time.Duration, int, error) {
		t := time.Now()
		cmd := exec.CommandContext(context.Background(), rg, "-n", searchPattern, path)
		cmd.Dir = b.opts.gotree
		out, err := cmd.Output()
		return time.Since(t), bytes.Count(out, []byte("\n")), err
	}
	noRG := filepath.Join(b.tmp, "no-rg-path")
	if err := os.MkdirAll(noRG, 0o755); err != nil {
		r5c.Err, r5d.Err = err.Error(), err.Error()
		return []row{r5c, r5d}
	}
	measure := func(r row, env []string, path string, runs int) row {
		params := searchParams(path)
		c := b.juju(b.warmHome, b.opts.gotree)
		c.name, c.env = "juju-search", append(c.env, env...)
		s, err := b.live(c)
		if err != nil {
			return r.with(nil, nil, err)
		}
		raw, err := s.request("tools/call", params) // warm the plugin and the page cache
		if err != nil {
			return r.with(nil, nil, s.fail(err))
		}
		got, engine := searchCount(raw)
		var js, rs sample
		want := 0
		for i := range runs {
			viaJuju := func() error {
				d, err := timedCall(s, params)
				js = append(js, d)
				return err
			}
			viaRG := func() error {
				d, n, err := direct(path)
				if err != nil {
					return fmt.Errorf("rg: %w", err)
				}
				rs, want = append(rs, d), n
				return nil
			}
			first, second := viaJuju, viaRG
			if i%2 == 1 { // alternate the order, so that neither always runs second on a warmer cache
				first, second = viaRG, viaJuju
			}
			if err := first(); err != nil {
				return r.with(nil, nil, err)
			}
			if err := second(); err != nil {
				return r.with(nil, nil, err)
			}
		}
		r = r.with(js, rs, nil)
		r.Note = fmt.Sprintf("matching lines: juju %d (engine %s), rg %d", got, engine, want)
		return r
	}
	runs := max(10, b.opts.globRuns)
	b.progress("search_code over %s through ripgrep, n=%d each (juju, rg directly)", b.opts.gotree, runs)
	r5c = measure(r5c, nil, ".", runs)
	b.progress("search_code over %s/%s by the plugin itself, n=%d (juju without rg, rg directly)", b.opts.gotree, searchSubtree, runs/2)
	r5d = measure(r5d, []string{"PATH=" + noRG}, searchSubtree, max(3, runs/2))
	return []row{r5c, r5d}
}

package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/jujutools/juju/test/bench/internal/workload"
)

// overviewParams asks for the overview of the whole root.
var overviewParams = callParams("project_overview", map[string]any{})

// skipped are the folders the overview's walk never enters.
var skipped = []string{".git", "node_modules", "vendor", "target", ".venv", "venv", "__pycache__", ".tox", ".nox", ".gradle"}

// overview is line ov: project_overview over Go's tree (one walk, sizes by
// extension, every discoverer woken by what it finds) against the bare
// walk done natively in-process, in the same run.
func (b *bench) overview() row {
	r := row{ID: "ov", Work: "project_overview of Go's tree", Unit: "ms", Target: target{Limit: 4, OnRatio: true},
		Via:     "one warm process rooted at the Go tree, raw JSON-RPC over stdio",
		Against: "in-process filepath.WalkDir + Lstat of every file, bytes summed by extension (no .gitignore, no parsing)"}
	if b.opts.gotree == "" {
		r.Err = "no Go tree: pass -gotree"
		return r
	}
	return b.measureOverview(r, b.opts.gotree)
}

// overviewMonorepo is line ovm: project_overview of a generated monorepo of
// workspace.MonorepoFiles files in the shapes the discoverers follow
// (workspaces, includes, modules, file tasks), against the same native walk.
func (b *bench) overviewMonorepo() row {
	r := row{ID: "ovm", Work: fmt.Sprintf("project_overview of a %d-file monorepo", workload.MonorepoFiles), Unit: "ms", Target: target{Limit: 4, OnRatio: true},
		Via:     "one warm process rooted at a monorepo the report generates, raw JSON-RPC over stdio",
		Against: "in-process filepath.WalkDir + Lstat of every file, bytes summed by extension (no .gitignore, no parsing)"}
	dir := filepath.Join(b.tmp, "monorepo")
	if err := workload.Monorepo(dir); err != nil {
		return r.with(nil, nil, err)
	}
	return b.measureOverview(r, dir)
}

// measureOverview times project_overview of root in one warm juju process
// against the native walk of root, one after the other, in the same run.
func (b *bench) measureOverview(r row, root string) row {
	j, err := b.live(b.juju(b.warmHome, root))
	if err != nil {
		return r.with(nil, nil, err)
	}
	b.progress("project_overview of %s, n=%d (juju, in-process walk)", root, b.opts.globRuns)
	raw, err := j.request("tools/call", overviewParams) // warms the page cache and the plugins
	if err != nil {
		return r.with(nil, nil, j.fail(err))
	}
	jf, tasks, warnings := overviewCounts(raw)
	nf, err := nativeWalk(root)
	if err != nil {
		return r.with(nil, nil, err)
	}
	var js, ns sample
	for range b.opts.globRuns {
		d, err := timedCall(j, overviewParams)
		if err != nil {
			return r.with(nil, nil, err)
		}
		js = append(js, d)
		t := time.Now()
		if _, err := nativeWalk(root); err != nil {
			return r.with(nil, nil, err)
		}
		ns = append(ns, time.Since(t))
	}
	r = r.with(js, ns, nil)
	r.Note = fmt.Sprintf("files: juju %d, native %d; juju found %d tasks and %d warnings (juju skips .gitignored files and secrets)", jf, nf, tasks, warnings)
	return r
}

// overviewCounts reads the file, task and warning counts of an answer.
func overviewCounts(raw json.RawMessage) (files, tasks, warnings int) {
	var res struct {
		Structured struct {
			Files    int               `json:"files"`
			Tasks    []json.RawMessage `json:"tasks"`
			Warnings []json.RawMessage `json:"warnings"`
		} `json:"structuredContent"`
	}
	json.Unmarshal(raw, &res)
	return res.Structured.Files, len(res.Structured.Tasks), len(res.Structured.Warnings)
}

// nativeWalk is the work the overview's walk does, in plain Go: every
// regular file's size summed by extension, dependency folders skipped.
func nativeWalk(root string) (int, error) {
	sizes := map[string]int64{}
	files := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != root && slices.Contains(skipped, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		files++
		sizes[strings.ToLower(filepath.Ext(d.Name()))] += info.Size()
		return nil
	})
	return files, err
}

// unloadAfterMs is plugins.unloadAfterMs for line 8u (two minutes by
// default): the report waits it out.
const unloadAfterMs = 1000

// unloaded is line 8u: the resident size of a juju process that ran a
// project_overview of Go's tree, once the task discoverers' plugin went
// unused for plugins.unloadAfterMs and was unloaded, against the same
// process's resident size before the overview.
func (b *bench) unloaded() row {
	r := row{ID: "8u", Work: "resident after an overview, its plugin unloaded", Unit: "MB", Target: target{Limit: 80},
		Via:     fmt.Sprintf("one juju process rooted at the Go tree with plugins.unloadAfterMs = %d: read_file, then project_overview, then VmRSS once the plugin is unloaded (polled for 10 s)", unloadAfterMs),
		Against: "VmRSS of the same process after read_file, before the overview"}
	if b.opts.gotree == "" {
		r.Err = "no Go tree: pass -gotree"
		return r
	}
	home := filepath.Join(b.tmp, "home-unload")
	if err := os.MkdirAll(filepath.Join(home, "config"), 0o700); err != nil {
		return r.with(nil, nil, err)
	}
	if err := os.WriteFile(filepath.Join(home, "config", "config.toml"), fmt.Appendf(nil, "[plugins]\nunloadAfterMs = %d\n", unloadAfterMs), 0o600); err != nil {
		return r.with(nil, nil, err)
	}
	if err := os.Symlink(filepath.Join(b.warmHome, "cache"), filepath.Join(home, "cache")); err != nil {
		return r.with(nil, nil, err)
	}
	c := b.juju(home, b.opts.gotree)
	c.name = "juju-unload" // not one of line 8's processes
	j, err := b.live(c)
	if err != nil {
		return r.with(nil, nil, err)
	}
	b.progress("resident after an overview, its plugin unloaded (about %d s)", unloadAfterMs/1000+3)
	if _, err := j.request("tools/call", readFileParams); err != nil {
		return r.with(nil, nil, j.fail(err))
	}
	time.Sleep(time.Second) // the warm-up's last plugin
	before, err := j.rss()
	if err != nil {
		return r.with(nil, nil, err)
	}
	if _, err := j.request("tools/call", overviewParams); err != nil {
		return r.with(nil, nil, j.fail(err))
	}
	loaded, err := j.rss()
	if err != nil {
		return r.with(nil, nil, err)
	}
	// Unloaded: the resident size fell by most of what the overview added.
	after := loaded
	for deadline := time.Now().Add(unloadAfterMs*time.Millisecond + 10*time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if after, err = j.rss(); err != nil {
			return r.with(nil, nil, err)
		}
		if after-before < (loaded-before)/4 {
			break
		}
	}
	const mb = 1 << 20
	r.Juju, r.Baseline = single(float64(after)/mb), single(float64(before)/mb)
	r.Note = fmt.Sprintf("VmRSS %.1f MB before the overview, %.1f MB after it, %.1f MB once its plugin was unloaded", float64(before)/mb, float64(loaded)/mb, float64(after)/mb)
	r.judge()
	return r
}

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/jujutools/juju/test/bench/internal/native"
	"github.com/jujutools/juju/test/bench/internal/workload"
)

// once spawns c, runs f on it and kills it. f returns the figure measured.
func once(c command, f func(s *server) (time.Duration, error)) (time.Duration, error) {
	s, err := start(c)
	if err != nil {
		return 0, err
	}
	defer s.kill()
	return f(s)
}

// untilInitialized measures spawn → initialize answered.
func untilInitialized(s *server) (time.Duration, error) {
	if _, err := s.request("initialize", initParams); err != nil {
		return 0, s.fail(err)
	}
	return time.Since(s.spawned), nil
}

// untilToolsListed measures spawn → tools/list answered, the handshake
// done as a client does it.
func untilToolsListed(s *server) (time.Duration, error) {
	if err := s.initialize(); err != nil {
		return 0, s.fail(err)
	}
	names, err := s.tools()
	if err != nil {
		return 0, s.fail(err)
	}
	d := time.Since(s.spawned)
	for _, want := range native.Tools {
		if !slices.Contains(names, want) {
			return 0, fmt.Errorf("%s: tools/list lacks %s", s.name, want)
		}
	}
	return d, nil
}

// firstCall measures initialize answered → first read_file answered.
func firstCall(s *server) (time.Duration, error) {
	if err := s.initialize(); err != nil {
		return 0, s.fail(err)
	}
	t := time.Now()
	if _, err := s.call(readFileParams); err != nil {
		return 0, s.fail(err)
	}
	return time.Since(t), nil
}

// readFileParams and readFilesParams are the steady-state calls.
var (
	readFileParams  = callParams("read_file", workload.ReadFileArgs)
	readFilesParams = callParams("read_files", workload.ReadFilesArgs)
	globParams      = callParams("glob_files", workload.GlobArgs)
)

// pair measures juju and the baseline n times each, alternating so that the
// machine's noise falls on both alike.
func pair(n int, juju, base func() (time.Duration, error)) (sample, sample, error) {
	var js, bs sample
	for range n {
		d, err := juju()
		if err != nil {
			return nil, nil, err
		}
		js = append(js, d)
		if base == nil {
			continue
		}
		if d, err = base(); err != nil {
			return nil, nil, err
		}
		bs = append(bs, d)
	}
	return js, bs, nil
}

// spawnInitialize is line 1: spawn → initialize answered, juju with a warm
// compilation cache.
func (b *bench) spawnInitialize() row {
	r := row{ID: "1", Work: "spawn → initialize answered", Unit: "ms", Target: target{Limit: 30},
		Via: "fresh process each run, JUJU_HOME a temp dir with a warm cache, raw JSON-RPC over stdio", Against: "native server, spawned the same way"}
	b.progress("spawn → initialize, n=%d each", b.opts.runs)
	js, bs, err := pair(b.opts.runs,
		func() (time.Duration, error) { return once(b.juju(b.warmHome, b.ws), untilInitialized) },
		func() (time.Duration, error) { return once(b.baseline(b.ws), untilInitialized) })
	return r.with(js, bs, err)
}

// spawnToolsList is line 2: spawn → tools/list answered, with a cold
// compilation cache (a fresh JUJU_HOME each run) or a warm one.
func (b *bench) spawnToolsList(cold bool) row {
	r := row{ID: "2w", Work: "spawn → tools/list answered, warm cache", Unit: "ms", Target: target{Limit: 50},
		Via: "fresh process each run, same JUJU_HOME with a warm cache, raw JSON-RPC", Against: "native server (no cache)"}
	if cold {
		r.ID, r.Work = "2c", "spawn → tools/list answered, cold cache"
		r.Via = "fresh process and fresh, empty JUJU_HOME each run, raw JSON-RPC"
	}
	b.progress("%s, n=%d each", r.Work, b.opts.runs)
	js, bs, err := pair(b.opts.runs, func() (time.Duration, error) {
		home := b.warmHome
		if cold {
			var err error
			if home, err = os.MkdirTemp(b.tmp, "home-cold-*"); err != nil {
				return 0, err
			}
			defer os.RemoveAll(home)
		}
		return once(b.juju(home, b.ws), untilToolsListed)
	}, func() (time.Duration, error) { return once(b.baseline(b.ws), untilToolsListed) })
	return r.with(js, bs, err)
}

// firstPluginCall is line 7: initialize answered → first read_file answered,
// with an empty cache (the plugin is compiled on that call or just before)
// or a warm one.
func (b *bench) firstPluginCall(cold bool) row {
	r := row{ID: "7w", Work: "first plugin call, warm cache", Unit: "ms", Target: target{Limit: 50},
		Via: "fresh process each run; first read_file answered minus initialize answered; raw JSON-RPC", Against: "native server's first call"}
	runs := b.opts.firstRuns
	if cold {
		r.ID, r.Work, r.Target.Limit = "7c", "first plugin call, empty cache", 1500
		r.Via = "fresh process and fresh, empty JUJU_HOME each run; first read_file answered minus initialize answered; raw JSON-RPC"
		runs = b.opts.coldRuns
	}
	b.progress("%s, n=%d each", r.Work, runs)
	js, bs, err := pair(runs, func() (time.Duration, error) {
		home := b.warmHome
		if cold {
			var err error
			if home, err = os.MkdirTemp(b.tmp, "home-empty-*"); err != nil {
				return 0, err
			}
			defer os.RemoveAll(home)
		}
		return once(b.juju(home, b.ws), firstCall)
	}, func() (time.Duration, error) { return once(b.baseline(b.ws), firstCall) })
	return r.with(js, bs, err)
}

// warm fills warmHome's compilation cache with every plugin (`juju doctor
// --warm`), then checks that juju and the baseline answer read_file alike,
// so that both do the same work.
func (b *bench) warm(ctx context.Context) error {
	b.progress("warming the compilation cache: juju doctor --warm")
	cmd := exec.CommandContext(ctx, b.opts.bin, "doctor", "--warm")
	cmd.Env = append(os.Environ(), "JUJU_HOME="+b.warmHome)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("juju doctor --warm: %w\n%s", err, out)
	}
	var answers []string
	for _, c := range []command{b.juju(b.warmHome, b.ws), b.baseline(b.ws)} {
		s, err := start(c)
		if err != nil {
			return err
		}
		defer s.kill()
		if err := s.initialize(); err != nil {
			return s.fail(err)
		}
		res, err := s.call(readFileParams)
		if err != nil {
			return err
		}
		answers = append(answers, res.text())
	}
	if answers[0] != answers[1] {
		b.notes = append(b.notes, fmt.Sprintf("read_file answers differ: juju %q, baseline %q", answers[0], answers[1]))
	}
	return nil
}

// with fills a row from its samples.
func (r row) with(juju, base sample, err error) row {
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.Juju, r.Baseline = juju.summary(), base.summary()
	r.judge()
	return r
}

// Command report prints juju's performance report, the figures of SPEC §11
// each beside a native baseline measured in the same run and the SPEC's
// target:
//
//	go run ./test/bench/report -bin bin/juju [-n 30] [-gotree $(go env GOROOT)/src] [-only P1,P2] [-json]
//
// It builds the native baseline server (test/bench/baseline) into a
// temporary folder, makes a small workspace, and drives both servers over
// stdio with raw JSON-RPC lines, so that no client library's overhead is
// part of a figure; the in-process line loads the core plugins into this
// process as `juju stdio` does. The P lines compare juju with the reference
// filesystem server (Node, pinned in test/bench/peer, installed there with
// `npm ci` when missing); the B lines move bytes through a test plugin
// built on the spot. Progress goes to stderr, the table (or JSON)
// to stdout. The exit status is 1 when a measurement failed, not when a
// target was missed: timings on a shared machine are for reading, not for
// gating.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jujutools/juju/test/bench/internal/workload"
)

// options are the report's flags.
type options struct {
	bin       string        // the juju binary
	runs      int           // fresh-process runs and in-process rounds per figure
	firstRuns int           // runs of the warm-cache first call
	coldRuns  int           // runs of the empty-cache first call (seconds each)
	globRuns  int           // globs over the Go tree per server
	calls     int           // steady-state calls per server and tool
	maxTime   time.Duration // cap on each steady-state figure
	gotree    string        // the Go source tree for the glob lines
	peer      string        // the folder holding the peer server's package.json
	only      string        // comma-separated row ids to measure (empty: all)
	json      bool
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "bin/juju", "the juju binary to measure")
	flag.IntVar(&o.runs, "n", defaultRuns(), "runs per spawn figure and rounds per in-process figure (default: $BENCHTIME, else 30)")
	flag.IntVar(&o.firstRuns, "firstn", 0, "runs of the first call with a warm compilation cache (default: -n/3, at least 3)")
	flag.IntVar(&o.coldRuns, "coldn", 3, "runs of the first call with an empty compilation cache")
	flag.IntVar(&o.globRuns, "globn", 0, "globs over the Go tree per server (default: -n/2, at least 3)")
	flag.IntVar(&o.calls, "calls", 2000, "steady-state calls per server and tool")
	flag.DurationVar(&o.maxTime, "maxtime", 8*time.Second, "stop a steady-state figure after this long, even short of -calls (at least 100 calls each)")
	flag.StringVar(&o.gotree, "gotree", "", "the Go source tree for the glob lines (default: $(go env GOROOT)/src)")
	flag.StringVar(&o.peer, "peer", "test/bench/peer", "the folder of the peer server's package.json (npm ci runs there when it is not installed)")
	flag.StringVar(&o.only, "only", "", "measure only these rows (comma-separated ids, e.g. P1,P2,B1); the others are left out")
	flag.BoolVar(&o.json, "json", false, "print JSON instead of the table")
	flag.Parse()
	if o.firstRuns == 0 {
		o.firstRuns = max(3, o.runs/3)
	}
	if o.globRuns == 0 {
		o.globRuns = max(3, o.runs/2)
	}
	if err := run(context.Background(), o, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

// defaultRuns is -n's default: $BENCHTIME (`make bench BENCHTIME=10`, "10"
// or "10x") when it is a count, else 30.
func defaultRuns() int {
	if n, err := strconv.Atoi(strings.TrimSuffix(os.Getenv("BENCHTIME"), "x")); err == nil && n > 0 {
		return n
	}
	return 30
}

// bench is one run of the report.
type bench struct {
	opts     options
	tmp      string // everything the run writes
	ws       string // the workspace
	warmHome string // a JUJU_HOME whose compilation cache is warm
	baseBin  string
	stderr   io.Writer
	servers  []*server // steady-state servers, closed at the end
	jujuRead *server
	baseRead *server
	peer     *server // the peer server of the P lines, for the memory line
	notes    []string
	began    time.Time
}

// progress prints one line on stderr, with the time since the start.
func (b *bench) progress(format string, args ...any) {
	fmt.Fprintf(b.stderr, "report: %5.1fs  "+format+"\n", append([]any{time.Since(b.began).Seconds()}, args...)...)
}

// juju is the command of `juju stdio` over root with JUJU_HOME=home.
func (b *bench) juju(home, root string) command {
	return command{name: "juju", bin: b.opts.bin, args: []string{"stdio", "--root", root}, env: []string{"JUJU_HOME=" + home}}
}

// baseline is the command of the native server over root.
func (b *bench) baseline(root string) command {
	return command{name: "baseline", bin: b.baseBin, args: []string{"-root", root}}
}

// ErrFailed reports that at least one line could not be measured.
var ErrFailed = errors.New("some measurements failed; see the table")

func run(ctx context.Context, o options, stdout, stderr io.Writer) error {
	began := time.Now()
	if o.runs < 1 || o.firstRuns < 1 || o.coldRuns < 1 || o.globRuns < 1 || o.calls < 1 {
		return errors.New("-n, -firstn, -coldn, -globn and -calls must be at least 1")
	}
	bin, err := filepath.Abs(o.bin)
	if err != nil {
		return err
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("juju binary: %w (build it with `make build`)", err)
	}
	o.bin = bin
	if o.gotree == "" {
		if o.gotree, err = workload.GoTree(); err != nil {
			fmt.Fprintf(stderr, "report: no Go tree, the glob lines are skipped: %v\n", err)
		}
	}
	tmp, err := os.MkdirTemp("", "juju-bench-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	b := &bench{opts: o, tmp: tmp, ws: filepath.Join(tmp, "workspace"), warmHome: filepath.Join(tmp, "home-warm"), stderr: stderr, began: began}
	defer func() {
		for _, s := range b.servers {
			s.close(5 * time.Second)
		}
	}()
	if err := workload.Workspace(b.ws); err != nil {
		return err
	}
	b.progress("building the native baseline server")
	if b.baseBin, err = buildBaseline(ctx, tmp); err != nil {
		return err
	}
	if err := b.warm(ctx); err != nil {
		return fmt.Errorf("warming juju: %w", err)
	}

	rows := b.measure()
	rep := &report{Rows: rows, Notes: b.notes, Meta: meta{
		Juju: version(ctx, o.bin), Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH, CPUs: runtime.NumCPU(),
		Runs: o.runs, Calls: o.calls, MaxTime: o.maxTime.String(), GoTree: o.gotree, Elapsed: time.Since(began).Round(time.Second).String(),
	}}
	if o.json {
		err = rep.writeJSON(stdout)
	} else {
		err = rep.writeTable(stdout)
	}
	if err != nil {
		return err
	}
	for _, r := range rows {
		if r.Err != "" {
			return ErrFailed
		}
	}
	return nil
}

// measure takes every figure and returns the rows in the SPEC's order. The
// steady-state servers stay up for the memory line, which comes last.
func (b *bench) measure() []row {
	byID := map[string]row{}
	groups := []struct {
		ids  []string
		take func() []row
	}{
		{[]string{"2c"}, func() []row { return []row{b.spawnToolsList(true)} }},
		{[]string{"7c"}, func() []row { return []row{b.firstPluginCall(true)} }},
		{[]string{"1"}, func() []row { return []row{b.spawnInitialize()} }},
		{[]string{"2w"}, func() []row { return []row{b.spawnToolsList(false)} }},
		{[]string{"7w"}, func() []row { return []row{b.firstPluginCall(false)} }},
		{[]string{"3", "4", "8"}, b.steadyReads},
		{[]string{"1h", "3h", "3c"}, b.httpLines},
		{[]string{"P1", "P2", "P3", "P4", "P5", "8"}, b.peers},
		{[]string{"B1", "B2"}, b.bulk},
		{[]string{"5", "5b"}, b.globs},
		{[]string{"5c", "5d"}, b.searches},
		{[]string{"6"}, func() []row { return []row{b.inProcess()} }},
		{[]string{"9", "9b", "10"}, b.commands},
		{[]string{"11", "11w", "11p"}, b.edits},
		{[]string{"ov"}, func() []row { return []row{b.overview()} }},
		{[]string{"lsp1", "lsp2", "lsp3"}, b.lsps},
		{[]string{"fx"}, func() []row { return []row{b.fetchPage()} }},
		{[]string{"ovm"}, func() []row { return []row{b.overviewMonorepo()} }},
		{[]string{"8u"}, func() []row { return []row{b.unloaded()} }},
		{[]string{"8"}, func() []row { return []row{b.memory()} }},
	}
	want := func(ids []string) bool {
		if b.opts.only == "" {
			return true
		}
		for _, id := range ids {
			if slices.Contains(strings.Split(b.opts.only, ","), id) {
				return true
			}
		}
		return false
	}
	for _, g := range groups {
		if want(g.ids) {
			for _, r := range g.take() {
				byID[r.ID] = r
			}
		}
	}
	var rows []row
	for _, id := range []string{"1", "1h", "2c", "2w", "3", "3h", "3c", "4", "P1", "P2", "P3", "P4", "P5", "B1", "B2", "5", "5b", "5c", "5d", "6", "7c", "7w", "9", "9b", "10", "11", "11w", "11p", "ov", "ovm", "lsp1", "lsp2", "lsp3", "fx", "8", "8u"} {
		if r, ok := byID[id]; ok {
			rows = append(rows, r)
		}
	}
	return rows
}

// buildBaseline builds the native baseline server into dir.
func buildBaseline(ctx context.Context, dir string) (string, error) {
	out := filepath.Join(dir, "baseline")
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", out, "github.com/jujutools/juju/test/bench/baseline")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building the baseline server: %w", err)
	}
	return out, nil
}

// version asks the binary for its version; the path stands in when it
// cannot say.
func version(ctx context.Context, bin string) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "version").Output()
	if first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n"); err == nil && first != "" {
		return strings.Join(strings.Fields(first), " ")
	}
	return bin
}

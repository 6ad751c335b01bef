package discover

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/hostfns/fs"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// Defaults of Options.
const (
	DefaultTimeout  = 10 * time.Second
	DefaultMaxFiles = 1000 // files offered to one discoverer
	DefaultMaxTasks = 5000 // tasks kept from one discoverer
)

// SkipDirs are the dependency and build folders the walk never enters.
var SkipDirs = []string{"node_modules", "vendor", "target", ".venv", "venv", "__pycache__", ".tox", ".nox", ".gradle"}

// Source is a loaded plugin that may have discoverers.
type Source interface {
	Name() string
	Discoverers() []abi.DiscovererSpec
	// Warm compiles the plugin if it is not yet (host/plugin.Plugin.Warm).
	Warm(ctx context.Context) error
	// Invoke calls an export of the plugin (host/plugin.Plugin.Invoke).
	Invoke(ctx context.Context, caller hostfns.Caller, export string, input []byte) ([]byte, *abi.Error)
}

// Options configure the host function.
type Options struct {
	// Sources returns the serving plugins; it is called on every request,
	// after the catalog is built.
	Sources func() []Source
	// Timeout caps each discoverer call (DefaultTimeout when 0).
	Timeout time.Duration
	// MaxFiles caps the files offered to one discoverer (DefaultMaxFiles).
	MaxFiles int
	// Scan bounds the walk; its Skip defaults to SkipDirs.
	Scan fs.ScanOptions
}

// New returns the juju_discover_tasks host function over the policy p.
func New(p *policy.Policy, opts Options) []hostfns.Func {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = DefaultMaxFiles
	}
	if opts.Scan.Skip == nil {
		opts.Scan.Skip = SkipDirs
	}
	s := &server{pol: p, opts: opts}
	return []hostfns.Func{{Name: abi.FnDiscoverTasks, Capability: abi.CapFSRead, Handle: hostfns.Typed(s.discover)}}
}

type server struct {
	pol  *policy.Policy
	opts Options
}

// nestedKey marks the context of a discoverer call, so that a discoverer
// cannot start discovery again.
type nestedKey struct{}

// job is one discoverer of one plugin and the files it was offered.
type job struct {
	src   Source
	spec  abi.DiscovererSpec
	names map[string]bool // globs that are plain names ("Makefile")
	globs []string        // the others
	files []string
	extra int // matches past MaxFiles
}

func (s *server) discover(ctx context.Context, req *abi.DiscoverTasksRequest, _ []byte) (*abi.DiscoverTasksResult, []byte, *abi.Error) {
	if ctx.Value(nestedKey{}) != nil {
		return nil, nil, abi.Errorf(abi.InvalidArgument, "a discoverer cannot run the discoverers; read the files it was given instead")
	}
	res := &abi.DiscoverTasksResult{Tasks: []abi.Task{}, Extensions: map[string]abi.ExtensionStat{}}
	if r, e := s.pol.Resolve(cmp.Or(req.Path, ".")); e == nil && isBare(r.Root) {
		return res, nil, nil
	}
	jobs := s.jobs()
	truncated, e := fs.Scan(ctx, s.pol, req.Path, s.opts.Scan, func(f fs.ScanFile) {
		res.Files++
		res.Bytes += f.Size
		if ext := extensionOf(f.Name); ext != "" && (len(res.Extensions) < maxExtensions || hasKey(res.Extensions, ext)) {
			st := res.Extensions[ext]
			st.Files++
			st.Bytes += f.Size
			res.Extensions[ext] = st
		}
		if inTestdata(f.Dir) {
			return // fixtures of tests, not the project's own build files
		}
		for _, j := range jobs {
			if j.matches(f.Path, f.Name) {
				j.offer(f.Path, s.opts.MaxFiles)
			}
		}
	})
	if e != nil {
		return nil, nil, e
	}
	for _, j := range jobs {
		j.settle(s.opts.MaxFiles)
	}
	res.Truncated = truncated
	s.run(ctx, jobs, res)
	sortTasks(res.Tasks)
	return res, nil, nil
}

// offer adds a matching file. The walk comes in no order, and a
// discoverer is promised its files sorted, the first max of them when
// there are more: j keeps the max first seen so far, at most twice that
// many between two cuts.
func (j *job) offer(path string, max int) {
	j.files = append(j.files, path)
	if len(j.files) >= 2*max {
		slices.Sort(j.files)
		j.extra += len(j.files) - max
		j.files = j.files[:max]
	}
}

// settle sorts the files offered and keeps the first max.
func (j *job) settle(max int) {
	slices.Sort(j.files)
	if len(j.files) > max {
		j.extra += len(j.files) - max
		j.files = j.files[:max]
	}
}

// jobs lists every discoverer of every source, with its valid globs.
func (s *server) jobs() []*job {
	var jobs []*job
	if s.opts.Sources == nil {
		return nil
	}
	for _, src := range s.opts.Sources() {
		for _, d := range src.Discoverers() {
			jobs = append(jobs, newJob(src, d))
		}
	}
	return jobs
}

// newJob sorts the globs of d into plain names and patterns, dropping
// invalid ones and those past the manifest's bounds (a manifest is checked
// for them at install and start; abi.MaxDiscovererGlob, abi.GlobForms):
// each is matched against every file, in host code no deadline stops.
func newJob(src Source, d abi.DiscovererSpec) *job {
	j := &job{src: src, spec: d, names: map[string]bool{}}
	for _, g := range d.Files {
		switch {
		case len(g) > abi.MaxDiscovererGlob:
		case !strings.ContainsAny(g, `/*?[]{}\`):
			j.names[g] = true
		case doublestar.ValidatePattern(g) && abi.GlobForms(g) <= abi.MaxGlobForms:
			j.globs = append(j.globs, g)
		}
	}
	return j
}

// matches applies the glob rule of abi.DiscovererSpec: a glob without a
// slash matches the name in any folder, one with a slash the whole path.
func (j *job) matches(display, name string) bool {
	if j.names[name] {
		return true
	}
	for _, g := range j.globs {
		target := name
		if strings.Contains(g, "/") {
			target = display
		}
		if doublestar.MatchUnvalidated(g, target) {
			return true
		}
	}
	return false
}

// run calls the discoverers that have files and merges what they found
// into res. The discoverers of one plugin run one after the other, in one
// instance (an instance costs memory; most discoverers take milliseconds);
// plugins run side by side, as many as there are cores (2 to 4), so a slow
// plugin does not hold the others up.
func (s *server) run(ctx context.Context, jobs []*job, res *abi.DiscoverTasksResult) {
	caller, _ := hostfns.CallerFrom(ctx)
	ctx = context.WithValue(ctx, nestedKey{}, true)
	// The discoverers end before the call does, whatever they cost each:
	// six slow ones, two at a time, would take the whole of a plugin's
	// time, and the overview would answer nothing.
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl.Add(-callReserve))
		defer cancel()
	}
	var (
		order []Source
		bySrc = map[Source][]int{} // indexes into jobs
		out   = newBudget(len(jobs))
		wg    sync.WaitGroup
		sema  = make(chan struct{}, min(max(runtime.GOMAXPROCS(0), 2), 4))
	)
	for i, j := range jobs {
		if len(j.files) == 0 {
			continue
		}
		if bySrc[j.src] == nil {
			order = append(order, j.src)
		}
		bySrc[j.src] = append(bySrc[j.src], i)
	}
	// Each source runs its discoverers on up to perSource instances at
	// once, taking the next one as one ends.
	for _, src := range order {
		next := make(chan int, len(bySrc[src]))
		for _, i := range bySrc[src] {
			next <- i
		}
		close(next)
		for range min(perSource, len(bySrc[src])) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					if !out.open(i, jobs[i]) {
						continue
					}
					sema <- struct{}{}
					t, w := s.call(ctx, caller, jobs[i])
					<-sema
					out.add(i, jobs[i], t, w)
				}
			}()
		}
	}
	wg.Wait()
	out.merge(res) // in the discoverers' order, whichever ended first
}

// callReserve is the part of the calling tool's time the discoverers leave
// to it: project_overview merges, cuts and renders what they found (a few
// milliseconds) after its other work, and answers with what finished.
const callReserve = 3 * time.Second

// perSource is how many discoverers of one plugin run at once: each runs
// in an instance of its own, and the pool keeps an instance once made, so
// this bounds what a project_overview adds to resident memory (one more
// instance of core-discover: make bench 8, 179 → 186 MB) for most of its
// speed (make bench ovm, two cores: 156–161 ms → 119–129 ms).
const perSource = 2

// discovererCaller is who a discoverer runs as: a caller of its own — its
// plugin, the tool "discover:NAME" (no tool's name holds a colon), tier R —
// never the tool that asked for the discovery. The host refuses a tier R
// caller every host function that writes, runs a program or reaches the
// network (host/plugin's minTier, git's add and commit), so a discoverer
// only reads, whatever called it: a tier X tool of another plugin cannot
// lend it its tier, nor the owner's approval of that call. The client, principal and call id stay the call's, so the
// logs and the journal tie what the discoverer did to it.
func discovererCaller(parent hostfns.Caller, j *job) hostfns.Caller {
	return hostfns.Caller{
		Plugin:    j.src.Name(),
		Tool:      "discover:" + j.spec.Name,
		Tier:      abi.TierRead,
		Client:    parent.Client,
		CallID:    parent.CallID,
		Principal: parent.Principal,
		Session:   parent.Session,
		Discovery: true,
	}
}

// call runs one discoverer. Its failure is a warning naming the discoverer
// and the first file it was offered.
func (s *server) call(ctx context.Context, caller hostfns.Caller, j *job) ([]abi.Task, []abi.Warning) {
	who := fmt.Sprintf("the %s discoverer (plugin %s)", j.spec.Name, j.src.Name())
	fail := func(msg string) []abi.Warning {
		return []abi.Warning{{File: j.files[0], Message: who + " " + msg}}
	}
	// What the plugin says of its failure is its own text, kept to one
	// line and cut.
	failed := func(msg string) []abi.Warning { return fail("failed: " + cut(oneLine(msg), maxMessage)) }
	if ctx.Err() != nil {
		return nil, fail(outOfTime(ctx))
	}
	// Compiling the plugin (once, at most) does not count against the
	// discoverer's time.
	if err := j.src.Warm(ctx); err != nil {
		return nil, fail("could not be loaded; its tasks are missing")
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	in, _ := json.Marshal(abi.DiscoverRequest{Discoverer: j.spec.Name, Files: j.files})
	out, aerr := j.src.Invoke(ctx, discovererCaller(caller, j), abi.ExportDiscover, in)
	switch {
	case aerr != nil && parent.Err() != nil:
		return nil, fail(outOfTime(parent))
	case aerr != nil && ctx.Err() != nil:
		return nil, fail(fmt.Sprintf("did not finish within %s and was stopped; its tasks are missing", s.opts.Timeout))
	case aerr != nil:
		return nil, failed(aerr.Message)
	}
	if len(out) > maxOutput {
		return nil, fail(fmt.Sprintf("returned %.1f MiB, more than the %d MiB juju reads of a discoverer; its tasks are missing", float64(len(out))/(1<<20), maxOutput>>20))
	}
	r, err := decodeResult(out)
	if err != nil {
		return nil, fail("returned a malformed result; its tasks are missing")
	}
	if r.Error != nil {
		return nil, failed(r.Error.Message)
	}
	warns := r.Warnings
	if j.extra > 0 {
		warns = append(warns, abi.Warning{File: j.files[len(j.files)-1], Message: fmt.Sprintf("%s was offered its first %d files; %d more were left out", who, len(j.files), j.extra)})
	}
	if r.tasks > DefaultMaxTasks {
		warns = append(warns, abi.Warning{File: j.files[0], Message: fmt.Sprintf("%s found %d tasks; the first %d are kept", who, r.tasks, DefaultMaxTasks)})
	}
	if r.warnings > maxWarnings {
		warns = append(warns, abi.Warning{File: j.files[0], Message: fmt.Sprintf("%s gave %d warnings; the first %d are kept", who, r.warnings, maxWarnings)})
	}
	roots := s.roots()
	tasks := r.Tasks[:0]
	dropped, missing, firstMissing := 0, 0, ""
	holds := s.holds(j.files)
	for _, t := range r.Tasks {
		t, ok := clean(t, roots)
		switch {
		case !ok:
			dropped++
		case t.File != "" && !holds(t.File):
			if missing++; missing == 1 {
				firstMissing = t.File
			}
		default:
			// Who found the task is the host's to say, never the
			// plugin's: it overwrites whatever the result held.
			t.Plugin, t.Discoverer = j.src.Name(), j.spec.Name
			tasks = append(tasks, t)
		}
	}
	kept := warns[:0]
	for _, w := range warns {
		if w, ok := cleanWarning(w, roots); ok {
			kept = append(kept, w)
		} else {
			dropped++
		}
	}
	if dropped > 0 {
		kept = append(kept, abi.Warning{File: j.files[0], Message: fmt.Sprintf("%s returned %d tasks or warnings that were left out: incomplete, with a control or invisible character in a name, runner or command, or with a path outside the folder", who, dropped)})
	}
	if missing > 0 {
		kept = append(kept, abi.Warning{File: firstMissing, Message: fmt.Sprintf("%s returned %d tasks naming a file the workspace does not hold, such as this one; they were left out", who, missing)})
	}
	return tasks, kept
}

// holds returns a test of whether the workspace holds a regular file at a
// task's path: one of the files the discoverer was offered, or one it
// names besides (a Makefile's include), looked up once. A task that
// claims a file no one can open (a Makefile where there is none) is not
// the project's, whatever it says.
func (s *server) holds(offered []string) func(string) bool {
	seen := make(map[string]bool, len(offered))
	for _, f := range offered {
		seen[f] = true
	}
	return func(p string) bool {
		if ok, done := seen[p]; done || s.pol == nil {
			return ok || s.pol == nil
		}
		r, e := s.pol.Resolve(p)
		ok := e == nil && r.Info != nil && r.Info.Mode().IsRegular()
		seen[p] = ok
		return ok
	}
}

func sortTasks(ts []abi.Task) {
	sort.SliceStable(ts, func(a, b int) bool {
		x, y := &ts[a], &ts[b]
		if x.Cwd != y.Cwd {
			return x.Cwd < y.Cwd
		}
		if x.Runner != y.Runner {
			return x.Runner < y.Runner
		}
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		return x.Name < y.Name
	})
}

// maxExtensions bounds the extension table (names come from the workspace).
const maxExtensions = 512

// byName are the files without an extension that are counted by name.
var byName = map[string]bool{"Makefile": true, "GNUmakefile": true, "makefile": true, "Dockerfile": true, "Containerfile": true, "Jenkinsfile": true, "Rakefile": true, "Gemfile": true, "justfile": true, "Justfile": true, "Vagrantfile": true}

// extensionOf is the key a file is counted under: its lower-case extension,
// its name for the few tools know by name, or "" (counted in the totals
// only).
func extensionOf(name string) string {
	if byName[name] {
		return name
	}
	ext := path.Ext(name)
	if ext == "" || ext == name || len(ext) > 16 {
		return ""
	}
	return strings.ToLower(ext)
}

// inTestdata says the folder dir is, or is inside, a folder named
// testdata: Go's convention for test fixtures, which often hold build
// files of other projects.
func inTestdata(dir string) bool {
	return dir == "testdata" || strings.HasPrefix(dir, "testdata/") || strings.Contains(dir, "/testdata/") || strings.HasSuffix(dir, "/testdata")
}

func hasKey(m map[string]abi.ExtensionStat, k string) bool {
	_, ok := m[k]
	return ok
}

// outOfTime says why a discoverer did not finish when the discovery's
// own context ended: the call was cancelled, or the time the discoverers
// share ran out.
func outOfTime(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "was stopped or not run: the discoverers' share of the call's time ran out; its tasks are missing"
	}
	return "was cancelled with the call; its tasks are missing"
}

// isBare reports whether the root is a bare repository (a HEAD file, objects
// and refs folders, no .git): what it holds is git's, hook
// samples and all, and no project's files, so an overview of it or of a
// folder in it counts nothing; its git section says what the root is.
func isBare(root *policy.Root) bool {
	if _, err := root.OS.Lstat(".git"); err == nil {
		return false // a work tree
	}
	fi, err := root.OS.Lstat("HEAD")
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	for _, d := range []string{"objects", "refs"} {
		if fi, err := root.OS.Lstat(d); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

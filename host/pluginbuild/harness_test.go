package pluginbuild

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/hostfns/approvals"
	"github.com/jujutools/juju/hostfns/discover"
	jexec "github.com/jujutools/juju/hostfns/exec"
	"github.com/jujutools/juju/hostfns/fetch"
	"github.com/jujutools/juju/hostfns/fs"
	"github.com/jujutools/juju/hostfns/git"
	"github.com/jujutools/juju/hostfns/journal"
	"github.com/jujutools/juju/hostfns/lsp"
	"github.com/jujutools/juju/hostfns/search"
	"github.com/jujutools/juju/hostfns/state"
	"github.com/jujutools/juju/hostfns/sysinfo"
	"github.com/jujutools/juju/internal/approval"
	store "github.com/jujutools/juju/internal/journal"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

// loaded is a built plugin loaded in the shared runtime with juju's real
// host functions over a policy of one root (every function the core plugin
// imports, as host.hostFunctions builds them), and a log host function that
// keeps what the plugin logs.
type loaded struct {
	*plugin.Plugin
	logs *logSink
}

// load builds src (once per test binary) and loads it with grants; edit may
// change the manifest first (limits, for instance).
func load(t testing.TB, src, root string, grants []abi.Capability, edit func(*manifest.Manifest)) *loaded {
	t.Helper()
	dir := ForTest(t, repo(src))
	data, err := os.ReadFile(filepath.Join(dir, manifest.FileName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(m)
	}
	wasm, err := os.ReadFile(filepath.Join(dir, WasmFile))
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	logs := &logSink{}
	fns := append([]hostfns.Func{logs.fn()}, coreFunctions(t, pol)...)
	p := testRuntime(t).Load(m, func() ([]byte, error) { return wasm, nil }, grants, fns)
	t.Cleanup(func() { p.Close(context.Background()) })
	return &loaded{Plugin: p, logs: logs}
}

// coreFunctions returns the real host functions the core module imports,
// built as host.hostFunctions builds them, with their state in a temporary
// folder: a wasm module does not instantiate while one of its imports is
// missing. The module serves core-exec too, so the command functions and
// fetch (disabled) are among them; the core plugin is not granted them.
func coreFunctions(t testing.TB, pol *policy.Policy) []hostfns.Func {
	stateDir := t.TempDir()
	reads := store.NewReadLog()
	j, err := store.Open(stateDir, pol, store.WithReadLog(reads))
	if err != nil {
		t.Fatal(err)
	}
	var fns []hostfns.Func
	fns = append(fns, approvals.New(approval.Open(approval.Dir(stateDir), approval.Options{})))
	fns = append(fns, git.New(pol, git.Options{})...)
	fns = append(fns, fs.New(pol, fs.Options{Observe: journal.ObserveReads(reads), Seed: reads.Seed()})...)
	fns = append(fns, journal.New(j, journal.Options{})...)
	fns = append(fns, state.New(stateDir)...)
	fns = append(fns, search.New(pol, search.Options{})...)
	fns = append(fns, sysinfo.New(sysinfo.Setup{Version: "test", Roots: rootPaths(pol)})...)
	fns = append(fns, discover.New(pol, discover.Options{Sources: func() []discover.Source { return nil }})...)
	servers := lsp.New(pol, lsp.Options{})
	t.Cleanup(func() { servers.Close(context.Background()) })
	fns = append(fns, servers.Funcs()...)
	jobs := jexec.New(pol, jexec.Options{JobsDir: t.TempDir()})
	t.Cleanup(func() { jobs.Close(context.Background()) })
	fns = append(fns, jobs.Funcs()...)
	fns = append(fns, fetch.New(fetch.Options{})...)
	return fns
}

// rootPaths lists the policy's roots.
func rootPaths(pol *policy.Policy) []string {
	var out []string
	for _, r := range pol.Roots() {
		out = append(out, r.Path)
	}
	return out
}

// call runs one tool with JSON arguments.
func (l *loaded) call(t *testing.T, tool, args string) *abi.CallResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return l.Call(ctx, hostfns.Caller{Plugin: l.Name(), Tool: tool, Client: "test"}, tool, json.RawMessage(args))
}

// ok runs a tool that must succeed and returns its text.
func (l *loaded) ok(t *testing.T, tool, args string) (string, *abi.CallResult) {
	t.Helper()
	res := l.call(t, tool, args)
	if res.Error != nil {
		t.Fatalf("%s %s: %s", tool, args, res.Error)
	}
	l.checkOutput(t, tool, res)
	return text(res), res
}

// fail runs a tool that must fail with code and returns the message.
func (l *loaded) fail(t *testing.T, tool, args string, code abi.Code) string {
	t.Helper()
	res := l.call(t, tool, args)
	if res.Error == nil {
		t.Fatalf("%s %s succeeded, want %s: %s", tool, args, code, text(res))
	}
	if res.Error.Code != code {
		t.Fatalf("%s %s: got %s, want %s", tool, args, res.Error, code)
	}
	if len(res.Error.Message) < 20 {
		t.Fatalf("%s: message too short to guide the model: %q", tool, res.Error.Message)
	}
	return res.Error.Message
}

// checkOutput validates structured content against the tool's output schema.
func (l *loaded) checkOutput(t *testing.T, tool string, res *abi.CallResult) {
	t.Helper()
	for _, spec := range l.Manifest.Tools {
		if spec.Name != tool || len(spec.OutputSchema) == 0 {
			continue
		}
		if len(res.Structured) == 0 {
			t.Fatalf("%s: no structured content", tool)
		}
		s, err := manifest.CompileSchema(tool, spec.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(res.Structured)))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); err != nil {
			t.Fatalf("%s: structured content %s does not match the output schema: %v", tool, res.Structured, err)
		}
	}
}

func text(res *abi.CallResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// structured decodes a result's structured content into v.
func structured[T any](t *testing.T, res *abi.CallResult) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(res.Structured, &v); err != nil {
		t.Fatalf("structured content %s: %v", res.Structured, err)
	}
	return v
}

// logSink is a juju_log host function that keeps every line.
type logSink struct {
	mu    sync.Mutex
	lines []string
}

func (s *logSink) fn() hostfns.Func {
	return hostfns.Func{
		Name: abi.FnLog,
		Handle: hostfns.Typed(func(_ context.Context, req *abi.LogRequest, _ []byte) (*abi.Status, []byte, *abi.Error) {
			s.mu.Lock()
			s.lines = append(s.lines, req.Level+": "+req.Message)
			s.mu.Unlock()
			return &abi.Status{}, nil, nil
		}),
	}
}

func (s *logSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.lines, "\n")
}

// workspace makes a root folder with the given files (path → content); a
// content starting with "->" makes a symlink to the rest.
func workspace(t *testing.T, files map[string]string) string {
	return testfs.Workspace(t, files)
}

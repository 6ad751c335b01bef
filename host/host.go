package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/jujutools/juju/host/approval"
	"github.com/jujutools/juju/host/audit"
	"github.com/jujutools/juju/host/config"
	"github.com/jujutools/juju/host/core"
	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/host/policy"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/hostfns/approvals"
	jexec "github.com/jujutools/juju/hostfns/exec"
	"github.com/jujutools/juju/hostfns/fs"
	"github.com/jujutools/juju/hostfns/git"
	"github.com/jujutools/juju/hostfns/journal"
	"github.com/jujutools/juju/hostfns/search"
	"github.com/jujutools/juju/hostfns/state"
	"github.com/jujutools/juju/hostfns/sysinfo"
	"github.com/jujutools/juju/sandbox"
	"github.com/jujutools/juju/sdk/abi"
)

// Config is everything the host needs, already merged from flags, the
// config file and defaults by cmd/juju. It is not changed after New.
type Config struct {
	Roots           []string
	Mode            config.Mode
	Sandbox         config.Sandbox
	AllowWebFetch   bool
	Deny            []string // extra deny globs
	Secrets         []string // extra secret globs
	Dirs            config.Dirs
	FetchAllow      []string      // host:port pairs exempt from the private-address block
	BackgroundAfter time.Duration // a command still running after this becomes a background job
	Version         string
	Logger          *slog.Logger
	// ApprovalTimeout bounds how long a call waits for the owner's approval
	// before it answers APPROVAL_PENDING (DefaultApprovalTimeout when 0).
	ApprovalTimeout time.Duration
	// PluginTimeout and PluginMemoryMiB override the runtime defaults (tests).
	PluginTimeout   time.Duration
	PluginMemoryMiB int
}

// Host is a loaded catalog of plugins over one workspace.
type Host struct {
	cfg     Config
	log     *slog.Logger
	policy  *policy.Policy
	runtime *plugin.Runtime
	plugins []*Loaded
	tools   map[string]*Tool
	order   []string

	audit     *audit.Log      // every call, in the state folder
	approvals *approval.Store // calls waiting for the owner
	exec      *jexec.Manager  // the command jobs, killed by Close
	journal   *journal.Lazy   // opened on the first write
	fetches   *fetchLog       // web fetches of the calls in progress, for their audit records
}

// Source says where a plugin comes from.
type Source string

// Plugin sources.
const (
	SourceCore      Source = "core"
	SourceInstalled Source = "installed"
)

// Loaded is a plugin in the catalog, or one that was refused (Err set).
type Loaded struct {
	*plugin.Plugin
	Source  Source
	Dir     string // installed plugins: their folder
	Granted []abi.Capability
	Err     error     // why the plugin is not serving
	pin     *pinWatch // installed plugins: follows grants.json (installed.go)
}

// Tool is one catalog entry.
type Tool struct {
	Spec   abi.ToolSpec
	Plugin *Loaded
}

// New loads the manifests of the core and installed plugins and builds the
// catalog. Nothing is compiled here.
func New(cfg Config) (*Host, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	pol, err := policy.New(policy.Config{
		Roots:   cfg.Roots,
		Deny:    cfg.Deny,
		Secrets: cfg.Secrets,
		Private: cfg.Dirs.All(),
	})
	if err != nil {
		return nil, err
	}
	rt, err := plugin.NewRuntime(plugin.Options{
		CacheDir:  cfg.Dirs.Cache,
		Timeout:   cfg.PluginTimeout,
		MemoryMiB: cfg.PluginMemoryMiB,
		Logger:    log,
	})
	if err != nil {
		return nil, err
	}
	h := &Host{cfg: cfg, log: log, policy: pol, runtime: rt, tools: map[string]*Tool{}}
	h.audit = audit.Open(audit.Path(h.StateDir()))
	h.approvals = approval.Open(approval.Dir(h.StateDir()), approval.Options{})
	h.journal = journal.NewLazy(h.StateDir(), pol, journal.WithLogger(log))
	fns := h.hostFunctions()

	cores, err := core.Plugins()
	if err != nil {
		return nil, err
	}
	for _, c := range cores {
		l := &Loaded{Source: SourceCore, Granted: c.Manifest.Capabilities}
		l.Plugin = rt.Load(c.Manifest, c.Wasm, l.Granted, fns)
		h.add(l)
	}
	for _, l := range h.loadInstalled(fns) {
		h.add(l)
	}
	return h, nil
}

// hostFunctions returns every host function; the runtime links all of them
// into every plugin and checks grants per call. One line per capability
// package.
func (h *Host) hostFunctions() []hostfns.Func {
	var fns []hostfns.Func
	fns = append(fns, logFunc(h.log))
	fns = append(fns, approvals.New(h.approvals))
	fns = append(fns, h.execManager().Funcs()...)
	fns = append(fns, git.New(h.policy, git.Options{Secrets: h.cfg.Secrets, Deny: h.cfg.Deny, Logger: h.log})...)
	fns = append(fns, fs.New(h.policy, fs.Options{Observe: h.journal.Saw})...)
	fns = append(fns, journal.New(h.journal)...)
	fns = append(fns, state.New(h.StateDir())...)
	fns = append(fns, search.New(h.policy, search.Options{Secrets: h.cfg.Secrets, Deny: h.cfg.Deny, Logger: h.log})...)
	fns = append(fns, sysinfo.New(h.environmentSetup())...)
	fns = append(fns, h.discoverFuncs()...)
	fns = append(fns, h.fetchFuncs()...)
	return fns
}

// execManager makes the command job manager: logs under the state folder,
// one folder per server process.
func (h *Host) execManager() *jexec.Manager {
	h.exec = jexec.New(h.policy, jexec.Options{
		JobsDir:         filepath.Join(h.StateDir(), "jobs", strconv.Itoa(os.Getpid())),
		BackgroundAfter: h.cfg.BackgroundAfter,
		Sandbox:         h.cfg.Sandbox,
		Sandboxer:       sandbox.New(sandbox.DefaultHelper()),
		Logger:          h.log,
	})
	return h.exec
}

// StateDir is the folder holding this workspace's state (journal, audit,
// todos, approvals), outside the workspace.
func (h *Host) StateDir() string { return h.cfg.Dirs.Workspace(h.cfg.Roots) }

// Journal returns the workspace's change journal, opening it (and settling
// a change a crashed writer left pending) on first use.
func (h *Host) Journal() (*journal.Journal, error) { return h.journal.Get() }

// add puts a plugin's tools into the catalog, refusing the whole plugin when
// one of its tools is already served by another.
func (h *Host) add(l *Loaded) {
	h.plugins = append(h.plugins, l)
	if l.Err != nil {
		return
	}
	for _, t := range l.Manifest.Tools {
		if prev, ok := h.tools[t.Name]; ok {
			l.Err = fmt.Errorf("tool %q is already provided by plugin %s", t.Name, prev.Plugin.Name())
			h.log.Warn("plugin refused", "plugin", l.Name(), "err", l.Err)
			return
		}
	}
	for _, t := range l.Manifest.Tools {
		h.tools[t.Name] = &Tool{Spec: t, Plugin: l}
		h.order = append(h.order, t.Name)
	}
}

// Config returns the configuration the host runs with.
func (h *Host) Config() Config { return h.cfg }

// Policy returns the path policy.
func (h *Host) Policy() *policy.Policy { return h.policy }

// Tools returns the catalog sorted by name.
func (h *Host) Tools() []*Tool {
	names := append([]string(nil), h.order...)
	sort.Strings(names)
	out := make([]*Tool, len(names))
	for i, n := range names {
		out[i] = h.tools[n]
	}
	return out
}

// Tool looks a tool up by name.
func (h *Host) Tool(name string) (*Tool, bool) {
	t, ok := h.tools[name]
	return t, ok
}

// Plugins returns every plugin, serving or refused, core first.
func (h *Host) Plugins() []*Loaded { return h.plugins }

// Warm compiles the serving plugins that have tools in the background, one
// at a time, those with the most tools first (the likeliest to serve the
// first call), and returns at once: on a machine of few cores, parallel
// compilations would all finish late. A call to a plugin not yet compiled
// compiles it itself. Plugins with discoverers only are left to the first
// project_overview.
func (h *Host) Warm(ctx context.Context) {
	go h.journal.Get() // settles a change a crashed writer left pending
	var todo []*Loaded
	for _, l := range h.plugins {
		if l.Err == nil && len(l.Manifest.Tools) > 0 {
			todo = append(todo, l)
		}
	}
	sort.SliceStable(todo, func(i, j int) bool { return len(todo[i].Manifest.Tools) > len(todo[j].Manifest.Tools) })
	go func() {
		for _, l := range todo {
			l.Warm(ctx)
		}
	}()
}

// ErrUnknownTool reports a tool the catalog does not have.
var ErrUnknownTool = errors.New("unknown tool")

// Call runs one tool. Arguments have been validated against the tool's input
// schema by the caller (the MCP layer). The policy gate comes first: when
// the tool's tier needs the owner's approval in this trust mode, the call
// waits for it (see approve). Every call, run or refused, is audited.
func (h *Host) Call(ctx context.Context, client, name string, args json.RawMessage) (*abi.CallResult, error) {
	t, ok := h.tools[name]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnknownTool, name)
	}
	start := time.Now()
	caller := hostfns.Caller{Plugin: t.Plugin.Name(), Tool: name, Tier: t.Spec.Tier, Client: client, CallID: newCallID()}
	var res *abi.CallResult
	var appr *audit.Approval
	if NeedsApproval(h.cfg.Mode, t.Spec.Tier) {
		var refused *abi.Error
		appr, refused = h.approve(ctx, caller, args)
		if refused == askedClient {
			// The answer comes with the client's retry, audited then; this
			// round is recorded as held.
			h.record(start, caller, args, &abi.CallResult{Error: &abi.Error{Code: abi.ApprovalPending}},
				&audit.Approval{Via: "elicitation", Decision: "asked"})
			return nil, ErrAskClient
		}
		if refused != nil {
			res = &abi.CallResult{Error: refused}
		}
	}
	if res == nil {
		t.Plugin.refreshGrants(h.log)
		res = t.Plugin.Call(ctx, caller, name, args)
	}
	h.record(start, caller, args, res, appr)
	return res, nil
}

// record appends the call to the audit log. A failure to write it is
// logged, never the call's failure.
func (h *Host) record(start time.Time, c hostfns.Caller, args []byte, res *abi.CallResult, appr *audit.Approval) {
	r := audit.Record{
		Time: start.UTC(), CallID: c.CallID, Client: c.Client, Plugin: c.Plugin, Tool: c.Tool, Tier: c.Tier,
		Args: audit.ShortArgs(args), Outcome: audit.OutcomeOK, Approval: appr,
		DurationMs: float64(time.Since(start).Microseconds()) / 1000,
		Fetches:    h.fetches.take(c.CallID),
	}
	if res.Error != nil {
		r.Outcome = string(res.Error.Code)
	}
	if err := h.audit.Append(&r); err != nil {
		h.log.Warn("writing the audit log", "err", err)
	}
}

// Close stops every plugin and then the runtime. It waits, until ctx ends,
// for compilations in progress; past that it leaves the runtime open, as the
// process is about to exit.
func (h *Host) Close(ctx context.Context) error {
	var errs []error
	if h.exec != nil {
		if err := h.exec.Close(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	for _, l := range h.plugins {
		if l.Plugin != nil {
			if err := l.Close(ctx); err != nil {
				errs = append(errs, err)
			}
		}
	}
	h.audit.Close()
	if err := h.journal.Close(); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return h.runtime.Close(ctx)
}

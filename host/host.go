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
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jujutools/juju/host/core"
	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/hostfns/approvals"
	jexec "github.com/jujutools/juju/hostfns/exec"
	"github.com/jujutools/juju/hostfns/fs"
	"github.com/jujutools/juju/hostfns/git"
	"github.com/jujutools/juju/hostfns/journal"
	"github.com/jujutools/juju/hostfns/lsp"
	"github.com/jujutools/juju/hostfns/search"
	"github.com/jujutools/juju/hostfns/state"
	"github.com/jujutools/juju/hostfns/sysinfo"
	"github.com/jujutools/juju/internal/approval"
	"github.com/jujutools/juju/internal/audit"
	"github.com/jujutools/juju/internal/config"
	store "github.com/jujutools/juju/internal/journal"
	"github.com/jujutools/juju/internal/lspconfig"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/proc"
	"github.com/jujutools/juju/internal/workspace"
	"github.com/jujutools/juju/sandbox"
	"github.com/jujutools/juju/sdk/abi"
)

// Config is everything the host needs, already merged from flags, the
// config file and defaults by cmd/juju. It is not changed after New.
type Config struct {
	Roots         []string
	Mode          config.Mode
	Sandbox       sandbox.Mode
	AllowWebFetch bool
	Deny          []string // extra deny globs
	Secrets       []string // extra secret globs
	Dirs          config.Dirs
	// Files are juju's own files outside Dirs (the config file it read,
	// its log file): private to the tools like Dirs, and read-only to a
	// confined command, wherever they lie.
	Files []string
	// HiddenFiles are files a confined command cannot read (juju serve's
	// --token-file), outside the roots like Files.
	HiddenFiles     []string
	FetchAllow      []string      // host:port pairs exempt from the private-address block
	BackgroundAfter time.Duration // a command still running after this becomes a background job
	Version         string
	Logger          *slog.Logger
	// CommandEnv is the environment commands start from, before the
	// secrets are scrubbed (os.Environ() when nil): juju started with it,
	// before its own PATH lost the folders inside the roots.
	CommandEnv []string
	// ApprovalTimeout bounds how long a call waits for the owner's approval
	// before it answers APPROVAL_PENDING (DefaultApprovalTimeout when 0).
	ApprovalTimeout time.Duration
	// TerminalApprovalsOnly: the owner is never asked through the client
	// (elicitation), only through `juju approvals`: the client's answer
	// is then not taken for the owner's.
	TerminalApprovalsOnly bool
	// JournalLimits bound the change journal, which prunes itself at start
	// and after changes past the size limit (zero: it keeps everything).
	JournalLimits store.Limits
	// UnloadAfter is how long a plugin compiled on demand (not warmed at
	// start: discoverers only, or lazy) stays loaded after its last call;
	// 0 keeps it loaded.
	UnloadAfter time.Duration
	// StandbyIdle is how long the sandbox started ahead of the next
	// sandboxed command waits for it before it is let go; 0 keeps it.
	StandbyIdle time.Duration
	// PluginTimeout and PluginMemoryMiB override the runtime defaults (tests).
	PluginTimeout   time.Duration
	PluginMemoryMiB int
	// LSPServers are the owner's language-server registrations.
	LSPServers []lspconfig.Server
}

// Host is a loaded catalog of plugins over one workspace.
type Host struct {
	cfg     Config
	log     *slog.Logger
	policy  *policy.Policy
	runtime *plugin.Runtime
	cat     atomic.Pointer[catalog] // swapped whole when the installed plugins change (reload.go)
	reload  reloader

	ws        *workspace.Workspace // policy, journal, audit, approvals, state folder
	audit     *audit.Log           // every call, in the state folder (ws.Audit)
	approvals *approval.Store      // calls waiting for the owner (ws.Approvals)
	// fullLog spaces the warnings that approvals are full: a client can
	// make refused calls as fast as it likes, and each would log a line.
	fullLog *logBudgets
	// process tells this process's connections from another's in the
	// approvals (connOf): every stdio session is named "stdio".
	process string
	// exec is the command jobs, killed by Close: made by jobs() when the
	// warm-up or a call first needs it, not before the first answer.
	// execMu is held while the manager is made, so Close waits for one
	// being made rather than miss it; execClosed, under it, says Close
	// has run: a manager made after is closed at once.
	exec       atomic.Pointer[jexec.Manager]
	execMu     sync.Mutex
	execClosed bool
	makeJobs   func() *jexec.Manager // newJobs; a test holds it midway

	// started is which client started each job, for the job tools that
	// follow one (followsOwnJob).
	started startedJobs
	lsp     *lsp.Manager // the language servers, started on first use
	// scrubbedEnv is juju's environment without its secrets, which git
	// and the language servers start from.
	scrubbedEnv []string
	fetches     *fetchLog // web fetches of the calls in progress, for their audit records

	warmed    chan struct{} // closed when Warm's compilations have ended
	warmedSet sync.Once
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
	pin     *pinWatch // installed plugins: follows grants.json, and pins the version loaded (installed.go)
}

// warmsAtStart reports whether the warm-up compiles the plugin and readies
// an instance of it: a serving plugin with tools that did not ask to wait
// for its first call.
func (l *Loaded) warmsAtStart() bool {
	return l.Err == nil && len(l.Manifest.Tools) > 0 && !l.Manifest.Lazy
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
	// The language servers hear of every change the journal commits; the
	// manager is made once the policy is open, before any call.
	var servers *lsp.Manager
	observe := func(t []store.Touched) {
		if servers != nil {
			servers.Observe(t)
		}
	}
	ws, err := workspace.Open(workspace.Config{Roots: cfg.Roots, Deny: cfg.Deny, Secrets: cfg.Secrets, Dirs: cfg.Dirs, Files: cfg.Files, Logger: log, Observer: observe,
		Journal: cfg.JournalLimits, AutoPrune: true})
	if err != nil {
		return nil, err
	}
	pol := ws.Policy
	if r := rootHoldingHome(pol); r != "" {
		log.Warn("a workspace root holds your home folder: commands and the write tools can change your shell profile, dotfiles and tools' settings there; serve a project folder instead", "root", r)
	}
	rt, err := plugin.NewRuntime(plugin.Options{
		CacheDir:    cfg.Dirs.Cache,
		Timeout:     cfg.PluginTimeout,
		MemoryMiB:   cfg.PluginMemoryMiB,
		UnloadAfter: orNever(cfg.UnloadAfter),
		Logger:      log,
	})
	if err != nil {
		ws.Close()
		return nil, err
	}
	h := &Host{cfg: cfg, log: log, policy: pol, runtime: rt, ws: ws, audit: ws.Audit, approvals: ws.Approvals, warmed: make(chan struct{}),
		fullLog: &logBudgets{byPlugin: map[string]*logUse{}, now: time.Now}, process: approval.NewID()}
	h.makeJobs = h.newJobs
	// git and the language servers start from juju's environment without
	// its secrets, judged once (RATIONALE).
	h.scrubbedEnv = sandbox.Scrub(os.Environ())
	// Before any program starts, git and the language servers included:
	// only a process started after it looks for a subreaper above it, and
	// none gets a descriptor juju inherited. The command manager, made
	// later, does both again (once).
	proc.Subreap()
	proc.CloseInheritedOnExec()
	h.lsp = lsp.New(pol, lsp.Options{Servers: cfg.LSPServers, Logger: log, Env: h.scrubbedEnv, Epoch: h.approvals.Epoch})
	servers = h.lsp
	h.reload.fns = h.hostFunctions()

	cores, err := core.Plugins()
	if err != nil {
		return nil, err
	}
	cat := newCatalog()
	for _, c := range cores {
		l := &Loaded{Source: SourceCore, Granted: c.Manifest.Capabilities}
		l.Plugin = rt.LoadEmbedded(c.Manifest, c.Wasm, c.Release, l.Granted, h.reload.fns)
		cat.add(l, h.log)
	}
	h.reload.stamp = h.installedStamp()
	for _, l := range h.loadInstalled(nil) {
		cat.add(l, h.log)
	}
	h.cat.Store(cat)
	return h, nil
}

// orNever is an idle time as the plugin and exec options take it: the
// config's 0 (keep) is their negative (never), their 0 their default.
func orNever(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// hostFunctions returns every host function; the runtime links all of them
// into every plugin and checks grants per call. One line per capability
// package.
func (h *Host) hostFunctions() []hostfns.Func {
	var fns []hostfns.Func
	fns = append(fns, logFunc(h.log))
	fns = append(fns, approvals.New(h.approvals))
	fns = append(fns, h.noteJobStarts(jexec.FuncsOf(h.jobs))...)
	fns = append(fns, git.New(h.policy, git.Options{Logger: h.log, Env: h.scrubbedEnv, EnvScrubbed: true,
		ConfineRead: func(cwd string, visible, argv []string) ([]string, error) {
			return h.jobs().ConfineRead(cwd, visible, argv)
		},
		ConfineWrite: func(cwd string, argv []string) ([]string, *abi.Error) { return h.jobs().ConfineWrite(cwd, argv) }})...)
	fns = append(fns, fs.New(h.policy, fs.Options{Observe: journal.ObserveReads(h.ws.Reads), Seed: h.ws.Reads.Seed()})...)
	// A large change holds its old and new contents: the collector would
	// run throughout under the soft limit (RATIONALE).
	fns = append(fns, journal.New(h.ws.Journal, journal.Options{LiftMemoryLimit: plugin.LiftMemoryLimit})...)
	fns = append(fns, state.New(h.StateDir())...)
	fns = append(fns, search.New(h.policy, search.Options{Logger: h.log})...)
	fns = append(fns, sysinfo.New(h.environmentSetup())...)
	fns = append(fns, h.discoverFuncs()...)
	fns = append(fns, h.lsp.Funcs()...)
	fns = append(fns, h.fetchFuncs()...)
	return fns
}

// jobs returns the command job manager, made on its first use (the
// warm-up after the handshake, or a call before it): logs under the state
// folder, one folder per server process, after removing those of servers
// gone. Making it resolves juju's folders, programs and caches for the
// sandbox (a few hundred system calls), none of which the first answer
// needs (RATIONALE, "The command manager is made after the handshake").
func (h *Host) jobs() *jexec.Manager {
	if m := h.exec.Load(); m != nil {
		return m
	}
	h.execMu.Lock()
	defer h.execMu.Unlock()
	if m := h.exec.Load(); m != nil {
		return m
	}
	m := h.makeJobs()
	if h.execClosed {
		// A call after Close: it gets a manager that starts no command,
		// and nothing is left running.
		m.Close(context.Background())
	}
	h.exec.Store(m)
	return m
}

func (h *Host) newJobs() *jexec.Manager {
	jobs := filepath.Join(h.StateDir(), "jobs")
	for _, dir := range jexec.SweepJobs(jobs) {
		h.log.Info("removed the job logs of a juju that is gone", "folder", dir)
	}
	return jexec.New(h.policy, jexec.Options{
		JobsDir:         filepath.Join(jobs, strconv.Itoa(os.Getpid())),
		BackgroundAfter: h.cfg.BackgroundAfter,
		StandbyIdle:     orNever(h.cfg.StandbyIdle),
		Sandbox:         h.cfg.Sandbox,
		Sandboxer:       sandbox.NewDefault(),
		Private:         h.cfg.Dirs.All(),
		Files:           h.cfg.Files,
		HiddenFiles:     h.cfg.HiddenFiles,
		Programs:        ownPrograms(),
		Env:             h.cfg.CommandEnv,
		Ended:           h.bumpEpoch, // a job in the background may have changed files until now
		Logger:          h.log,
	})
}

// JobOwners returns the principals (Request.Principal) that have a
// background job running.
func (h *Host) JobOwners() []string {
	if m := h.exec.Load(); m != nil {
		return m.Owners()
	}
	return nil // no manager yet: no job ever ran
}

// EndJobs kills the running jobs of principal and returns how many: an
// OAuth client revoked leaves nothing running, since no other principal
// may see or cancel its jobs.
func (h *Host) EndJobs(principal string) int {
	if m := h.exec.Load(); m != nil {
		return m.KillOwner(principal)
	}
	return 0
}

// StateDir is the folder holding this workspace's state (journal, audit,
// todos, approvals), outside the workspace.
func (h *Host) StateDir() string { return h.ws.StateDir }

// Journal returns the workspace's change journal.
func (h *Host) Journal() *store.Journal { return h.ws.Journal }

// SessionEnded forgets what the MCP session id read (Request.Session):
// no call comes on it again, and a new session starts with a view of its
// own.
func (h *Host) SessionEnded(id string) { h.ws.Reads.Forget(id) }

// catalog is the plugins a host serves and their tools. It is never
// changed once stored in Host.cat: a reload builds a new one.
type catalog struct {
	plugins []*Loaded
	tools   map[string]*Tool
	order   []string
}

func newCatalog() *catalog { return &catalog{tools: map[string]*Tool{}} }

// add puts a plugin's tools into the catalog, refusing the whole plugin when
// one of its tools is already served by another.
func (c *catalog) add(l *Loaded, log *slog.Logger) {
	c.plugins = append(c.plugins, l)
	if l.Err != nil {
		return
	}
	for _, t := range l.Manifest.Tools {
		if prev, ok := c.tools[t.Name]; ok {
			l.Err = fmt.Errorf("tool %q is already provided by plugin %s", t.Name, prev.Plugin.Name())
			log.Warn("plugin refused", "plugin", l.Name(), "err", l.Err)
			return
		}
	}
	for _, t := range l.Manifest.Tools {
		c.tools[t.Name] = &Tool{Spec: t, Plugin: l}
		c.order = append(c.order, t.Name)
	}
	if !l.warmsAtStart() {
		l.UnloadWhenIdle() // compiled on demand: let go when unused
	}
}

// Config returns the configuration the host runs with.
func (h *Host) Config() Config { return h.cfg }

// Logger is the host's logger (never nil).
func (h *Host) Logger() *slog.Logger { return h.log }

// Policy returns the path policy.
func (h *Host) Policy() *policy.Policy { return h.policy }

// Tools returns the catalog sorted by name.
func (h *Host) Tools() []*Tool {
	c := h.cat.Load()
	names := append([]string(nil), c.order...)
	sort.Strings(names)
	out := make([]*Tool, len(names))
	for i, n := range names {
		out[i] = c.tools[n]
	}
	return out
}

// Tool looks a tool up by name.
func (h *Host) Tool(name string) (*Tool, bool) {
	t, ok := h.cat.Load().tools[name]
	return t, ok
}

// Plugins returns every plugin, serving or refused, core first.
func (h *Host) Plugins() []*Loaded { return h.cat.Load().plugins }

// CacheProblem says why compiled plugins are not cached on disk (they are
// compiled in memory at each start), or nil when they are.
func (h *Host) CacheProblem() error { return h.runtime.CacheProblem() }

// Warm compiles the serving plugins that have tools in the background, one
// at a time, those with the most tools first (the likeliest to serve the
// first call), and returns at once: on a machine of few cores, parallel
// compilations would all finish late. A call to a plugin not yet compiled
// compiles it itself. Plugins with discoverers only are left to the first
// project_overview, and lazy ones (manifest.Manifest.Lazy) to their first
// call.
func (h *Host) Warm(ctx context.Context) {
	h.ws.Journal.Start() // settles a change a crashed writer left pending, then prunes
	h.reload.warm.Store(&ctx)
	var todo []*Loaded
	for _, l := range h.Plugins() {
		if l.warmsAtStart() {
			todo = append(todo, l)
		}
	}
	sort.SliceStable(todo, func(i, j int) bool { return len(todo[i].Manifest.Tools) > len(todo[j].Manifest.Tools) })
	go func() {
		defer h.warmedSet.Do(func() { close(h.warmed) })
		h.jobs() // gone servers' job logs swept, the sandbox's folders resolved
		for _, l := range todo {
			if ctx.Err() != nil {
				return
			}
			l.Ready(ctx) // compiled and one instance warm, before the next
		}
		h.log.Debug("warm-up done", "plugins", len(todo))
	}()
}

// Warmed is closed once the compilations Warm started have ended (or
// stopped, its context done): the plugins a session starts with are loaded,
// and with them most of the memory the process will keep.
func (h *Host) Warmed() <-chan struct{} { return h.warmed }

// ErrUnknownTool reports a tool the catalog does not have.
var ErrUnknownTool = errors.New("unknown tool")

// Request is one tool call as the MCP front hands it to the host, its
// arguments already validated against the tool's input schema.
type Request struct {
	Client string // the MCP client's declared name
	// Principal is who holds what a call keeps beyond it (background
	// jobs): "" for the owner's local clients (stdio, juju serve's local
	// token), the OAuth client's id over HTTP. A job is seen only by the
	// principal that started it.
	Principal string
	// Session is the MCP session of the call (hostfns.Caller.Session).
	Session string
	Tool    string
	Args    json.RawMessage
	// Asker asks the owner through the client when the call needs an
	// approval; nil when the client cannot be asked (the owner then answers
	// with juju approvals).
	Asker Asker
}

// Result is what became of a call.
type Result struct {
	*abi.CallResult
	// Handed: the approval question went to the client (Asker answered
	// Handed); the call did not run, and its retry carries the answer.
	Handed bool
}

// rootGone is the answer to every call once a root's folder was deleted or
// moved away from its path (policy.Gone).
func rootGone(r *policy.Root, moved bool) *abi.Error {
	if moved {
		return abi.Errorf(abi.NotFound, "the workspace root %s was moved away from its path while juju ran: juju works only in the folder it opened at start, and commands would run in whatever now stands at that path, so nothing was done. Ask the owner to move the folder back, or to restart juju (reconnect its MCP server) to work in the folder at that path", abi.Quote(r.Path))
	}
	return abi.Errorf(abi.NotFound, "the workspace root %s was deleted while juju ran, and juju works only in the folder it opened at start (a folder now at that path is a new one): nothing was done. Ask the owner to restart juju (reconnect its MCP server) to work in the folder at that path", abi.Quote(r.Path))
}

// Call runs one tool. The policy gate comes first: when the tool's tier
// needs the owner's approval in this trust mode, the call waits for it
// (see approve). Every call, run or refused, is audited.
func (h *Host) Call(ctx context.Context, req Request) (Result, error) {
	t, ok := h.Tool(req.Tool)
	if !ok {
		return Result{}, fmt.Errorf("%w: %s", ErrUnknownTool, req.Tool)
	}
	start := time.Now()
	caller := hostfns.Caller{Plugin: t.Plugin.Name(), Tool: req.Tool, Tier: t.Spec.Tier, Client: req.Client, Principal: req.Principal, Session: req.Session, CallID: newCallID(), Arrived: start}
	var res *abi.CallResult
	var appr *audit.Approval
	if r, moved := h.policy.Gone(); r != nil {
		res = &abi.CallResult{Error: rootGone(r, moved)}
	} else if err := h.ws.Journal.Settled(ctx); err != nil {
		// A crashed writer's change is settled before any call sees the
		// workspace, the owner's question included: until then it may
		// hold old and new files together, and settling it moves the
		// epoch, so a yes given before would run on files put back after.
		res = unsettled()
	} else if a, ok := h.followsOwnJob(t, caller, req.Args); ok && NeedsApproval(h.cfg.Mode, t.Spec.Tier) {
		appr = a // following a job the owner let this client start
	} else if NeedsApproval(h.cfg.Mode, t.Spec.Tier) {
		var refused *abi.Error
		var handed bool
		appr, refused, handed = h.approve(ctx, caller, req.Args, req.Asker)
		if handed {
			// The answer comes with the client's retry, audited then; this
			// round is recorded as held.
			h.record(start, caller, req.Args, &abi.CallResult{Error: &abi.Error{Code: abi.ApprovalPending}}, appr)
			return Result{Handed: true}, nil
		}
		if refused != nil {
			res = &abi.CallResult{Error: refused}
		} else if err := h.ws.Journal.Settled(ctx); err != nil {
			// Again after the wait: a peer killed meanwhile left its
			// change half made (its start moved the epoch, so the yes
			// was judged against it already).
			res = unsettled()
		}
	}
	if res == nil && t.Spec.Tier == abi.TierExec && !startsNothing(t, caller) {
		// On record before it runs: a command can outlive juju, or kill
		// it (with the sandbox off), before the call's end is written. A
		// call that cannot be put on record does not run; one that only
		// reads or stops jobs starts nothing (startsNothing).
		res = h.recordStart(start, caller, req.Args, appr)
	}
	if res == nil {
		t.Plugin.refreshGrants(h.log)
		// A call following a job changes nothing itself: the job moves
		// the epoch when it ends (Ended), and a client polling it must
		// not spend the owner's other approvals at every poll.
		changes := t.Spec.Tier != abi.TierRead && (appr == nil || appr.Via != audit.ViaJob)
		if changes {
			h.bumpEpoch() // before: an approval asked from now on sees this call
		}
		caller.Began = time.Now()
		res = t.Plugin.Call(ctx, caller, req.Tool, req.Args)
		if changes {
			h.bumpEpoch() // after: and one asked while it ran sees it too
		}
	}
	h.recordAs(start, caller, req.Args, res, appr, givenUp(ctx, res))
	return Result{CallResult: res}, nil
}

// unsettled answers a call whose client gave it up while the journal
// still settled a change a crashed juju left half made.
func unsettled() *abi.CallResult {
	return &abi.CallResult{Error: abi.Errorf(abi.Timeout, "the call ended while juju was still putting right a change a crashed juju left halfway: nothing was done. Call the tool again")}
}

// Refused records in the audit log a call the MCP front refused before
// the host saw it: arguments that do not fit the tool's input schema
// (INVALID_ARGUMENT), or a tool the catalog does not have (NOT_FOUND). So
// the audit shows every call a client made, run or refused.
func (h *Host) Refused(client, tool string, args json.RawMessage, code abi.Code) {
	c := hostfns.Caller{Tool: tool, Client: client, CallID: newCallID()}
	if t, ok := h.Tool(tool); ok {
		c.Plugin, c.Tier = t.Plugin.Name(), t.Spec.Tier
	}
	h.record(time.Now(), c, args, &abi.CallResult{Error: &abi.Error{Code: code}}, nil)
}

// record appends the call to the audit log. A failure to write it is
// logged, never the call's failure.
func (h *Host) record(start time.Time, c hostfns.Caller, args []byte, res *abi.CallResult, appr *audit.Approval) {
	h.recordAs(start, c, args, res, appr, false)
}

// givenUp reports whether a call ended with TIMEOUT because its client
// gave it up (ctx cancelled, not past a deadline): the audit says so,
// rather than that it ran out of time.
func givenUp(ctx context.Context, res *abi.CallResult) bool {
	return res.Error != nil && res.Error.Code == abi.Timeout && errors.Is(ctx.Err(), context.Canceled)
}

// recordAs is record, the outcome "cancelled" when cancelled is set.
func (h *Host) recordAs(start time.Time, c hostfns.Caller, args []byte, res *abi.CallResult, appr *audit.Approval, cancelled bool) {
	r := audit.Record{
		Time: start.UTC(), CallID: c.CallID, Client: c.Client, Plugin: c.Plugin, Tool: c.Tool, Tier: c.Tier,
		Args: audit.ShortArgs(args), Outcome: audit.OutcomeOK, Approval: appr,
		DurationMs: float64(time.Since(start).Microseconds()) / 1000,
	}
	r.Fetches, r.FetchesDropped = h.fetches.take(c.CallID)
	switch {
	case cancelled:
		r.Outcome = audit.OutcomeCancelled
	case res.Error != nil:
		r.Outcome = string(res.Error.Code)
	}
	if err := h.audit.Append(&r); err != nil {
		h.log.Warn("writing the audit log", "err", err)
	}
}

// recordStart writes the started record of a call of tier X (see
// audit.OutcomeStarted). When it cannot, it returns the call's refusal:
// a command or fetch run off the record would leave no trace in juju
// audit, and filling the disk is within a command's reach.
func (h *Host) recordStart(start time.Time, c hostfns.Caller, args []byte, appr *audit.Approval) *abi.CallResult {
	r := audit.Record{
		Time: start.UTC(), CallID: c.CallID, Client: c.Client, Plugin: c.Plugin, Tool: c.Tool, Tier: c.Tier,
		Args: audit.ShortArgs(args), Outcome: audit.OutcomeStarted, Approval: appr,
	}
	err := h.audit.Append(&r)
	if err == nil {
		return nil
	}
	h.log.Error("writing the audit log: a call of tier X refused", "tool", c.Tool, "err", err)
	dir := abi.Quote(filepath.Dir(h.audit.Path()))
	if audit.DiskFull(err) {
		return &abi.CallResult{Error: abi.Errorf(abi.TooLarge, "juju could not write the audit log because the disk holding %s is full (or its quota is used up), and a command or fetch is not run off the record: nothing ran. Free space on that disk (or tell the owner), then call the tool again", dir)}
	}
	return &abi.CallResult{Error: abi.Errorf(abi.Internal, "juju could not write the audit log in %s, and a command or fetch is not run off the record: nothing ran. Call the tool again, and tell the owner if it persists", dir)}
}

// Close stops every plugin and then the runtime. It waits, until ctx ends,
// for compilations in progress; past that it leaves the runtime open, as the
// process is about to exit.
func (h *Host) Close(ctx context.Context) error {
	var errs []error
	lspDone := make(chan struct{})
	go func() { h.lsp.Close(ctx); close(lspDone) }() // side by side with the jobs: each has its bounded wait
	defer func() { <-lspDone }()
	// A manager being made (the warm-up inside jobs) is waited for, and
	// closed with the rest; none is made here when none was asked for.
	h.execMu.Lock()
	h.execClosed = true
	m := h.exec.Load()
	h.execMu.Unlock()
	if m != nil {
		if err := m.Close(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	for _, l := range h.Plugins() {
		if l.Plugin != nil {
			if err := l.Close(ctx); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if err := h.reload.wait(ctx); err != nil {
		errs = append(errs, err)
	}
	h.ws.Journal.Wait()
	if err := h.ws.Close(); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return h.runtime.Close(ctx)
}

// rootHoldingHome returns the root that holds the owner's home folder, if
// one does: everything there is then writable by commands and the write
// tools, the shell profile included. juju's own folders inside it are kept
// from them (hostfns/exec, guard.go); the rest is the owner's choice, said
// once at start and by juju doctor.
func rootHoldingHome(pol *policy.Policy) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	if real, err := filepath.EvalSymlinks(home); err == nil {
		home = real
	}
	for _, r := range pol.Roots() {
		if rel, err := filepath.Rel(r.Real, home); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return r.Real
		}
	}
	return ""
}

// ownPrograms are the executables juju runs outside any sandbox: itself
// (the re-executed helper, and the program the owner starts next) and its
// standalone sandbox helper. The helper is named whether or not it speaks
// this juju's protocol: asking it runs it, which juju does when a command
// first needs the sandbox, not while it starts (3-20 ms before the answer
// to initialize; RATIONALE). One of another build is guarded all the
// same, and juju never runs it.
func ownPrograms() []string {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	return ownProgramsOf(exe)
}

// ownProgramsOf is ownPrograms for the juju executable exe.
func ownProgramsOf(exe string) []string {
	out := []string{exe}
	if h := sandbox.StandaloneCandidate(exe); h != "" {
		out = append(out, h)
	}
	return out
}

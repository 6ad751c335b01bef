package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"time"

	"github.com/jujutools/juju/host/config"
	"github.com/jujutools/juju/host/core"
	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/host/policy"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/hostfns/fs"
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
	Err     error // why the plugin is not serving
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
	fns = append(fns, fs.New(h.policy, fs.Options{})...)
	fns = append(fns, h.discoverFuncs()...)
	return withUnavailable(fns, abi.FnGit)
}

// StateDir is the folder holding this workspace's state (journal, audit,
// todos, approvals), outside the workspace.
func (h *Host) StateDir() string { return h.cfg.Dirs.Workspace(h.cfg.Roots) }

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
// schema by the caller (the MCP layer).
func (h *Host) Call(ctx context.Context, client, name string, args json.RawMessage) (*abi.CallResult, error) {
	t, ok := h.tools[name]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnknownTool, name)
	}
	caller := hostfns.Caller{Plugin: t.Plugin.Name(), Tool: name, Tier: t.Spec.Tier, Client: client}
	return t.Plugin.Call(ctx, caller, name, args), nil
}

// Close stops every plugin and then the runtime. It waits, until ctx ends,
// for compilations in progress; past that it leaves the runtime open, as the
// process is about to exit.
func (h *Host) Close(ctx context.Context) error {
	var errs []error
	for _, l := range h.plugins {
		if l.Plugin != nil {
			if err := l.Close(ctx); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return h.runtime.Close(ctx)
}

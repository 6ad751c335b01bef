package install

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/jujutools/juju/host/core"
	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/host/pluginbuild"
	"github.com/jujutools/juju/internal/installed"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// Options configure one install. Data and Cache are required.
type Options struct {
	Data  string // the data directory (plugins/ is inside)
	Cache string // the compilation cache directory
	// SHA256 is the owner's expected sha256 of the wasm (hex); required
	// for URLs, checked when given for paths.
	SHA256 string
	// Grants are the capabilities the owner grants up front (--grant);
	// "all" stands for everything the manifest asks for.
	Grants []string
	// Confirm, when set, is asked about each capability the plugin asks for
	// that is neither in Grants nor kept from a previous version; it
	// returns the owner's answer. Nil grants nothing more.
	Confirm func(c abi.Capability, words string) (bool, error)
	// Progress receives the download and compile progress lines (nil: quiet).
	Progress io.Writer
	// Waiting is told when the install waits for another lifecycle command
	// (nil: quiet).
	Waiting    io.Writer
	HTTPClient *http.Client
	Timeout    time.Duration // the download's time cap (DownloadTimeout if 0)

	// Tests only: fault is called at each step of the swap into place
	// (a crash test kills the process there); twoStep swaps as where
	// folders cannot be exchanged in one step.
	fault   func(step string)
	twoStep bool
}

func (o *Options) downloadTimeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return DownloadTimeout
}

// Result is what an install did.
type Result struct {
	Name         string           `json:"name"`
	Version      string           `json:"version"`
	Dir          string           `json:"dir"`
	SHA256       string           `json:"sha256"`
	Tools        []string         `json:"tools"`
	Discoverers  []string         `json:"discoverers"`
	Capabilities []abi.Capability `json:"capabilities"` // asked for
	Granted      []abi.Capability `json:"granted"`
	NotGranted   []abi.Capability `json:"notGranted"`
	// Limits are what the plugin runs under: its manifest's asks within
	// juju's ceilings, juju's defaults where it asks nothing.
	Limits plugin.Limits `json:"limits"`
	// Update is set when the install replaced an installed version.
	Update *Update `json:"update,omitempty"`
	// CachePrunedBytes is the compiled code of previous builds the install
	// removed from the compilation cache.
	CachePrunedBytes int64 `json:"cachePrunedBytes,omitempty"`
}

// Update describes the version an install replaced.
type Update struct {
	PreviousVersion string           `json:"previousVersion"`
	Kept            []abi.Capability `json:"kept"`    // grants carried over
	NewAsks         []abi.Capability `json:"newAsks"` // asked for now, not by the previous version
	Dropped         []abi.Capability `json:"dropped"` // asked for before, no longer
	// The tools that changed, so the owner sees what a client will be
	// offered anew: those the previous version lacked, those it had and
	// this one lacks, and those whose tier changed (what approvals they
	// need). Empty when the previous manifest cannot be read.
	NewTools     []string `json:"newTools"`
	RemovedTools []string `json:"removedTools"`
	Retiered     []Retier `json:"retiered"`
}

// Retier is a tool whose tier an update changed.
type Retier struct {
	Tool string `json:"tool"`
	From string `json:"from"`
	To   string `json:"to"`
}

// toolChanges fills up's tool changes from the previous manifest to m.
func toolChanges(up *Update, prev, m *manifest.Manifest) {
	old := map[string]string{}
	for _, t := range prev.Tools {
		old[t.Name] = t.Tier
	}
	now := map[string]bool{}
	for _, t := range m.Tools {
		now[t.Name] = true
		tier, had := old[t.Name]
		switch {
		case !had:
			up.NewTools = append(up.NewTools, t.Name)
		case tier != t.Tier:
			up.Retiered = append(up.Retiered, Retier{Tool: t.Name, From: tier, To: t.Tier})
		}
	}
	for _, t := range prev.Tools {
		if !now[t.Name] {
			up.RemovedTools = append(up.RemovedTools, t.Name)
		}
	}
}

// CheckSource checks what the command line says of a plugin's source,
// before anything is read: a URL needs the sha256 its author published,
// and a sha256 given is 64 hex digits.
func CheckSource(src, sha256 string) error {
	if isURL(src) && sha256 == "" {
		return errors.New("--sha256 is required when installing from a URL: ask the plugin's author for the sha256 of its wasm")
	}
	want := strings.ToLower(strings.TrimSpace(sha256))
	if want != "" && (len(want) != 64 || strings.Trim(want, "0123456789abcdef") != "") {
		return fmt.Errorf("--sha256 %q is not 64 hex digits", sha256)
	}
	return nil
}

// Install stages, checks, compiles and installs the plugin at src: a plugin
// folder, a .tar.gz of one, or an https URL of such an archive. Nothing in
// the installed set changes unless every check passes.
func Install(ctx context.Context, src string, o Options) (*Result, error) {
	if err := CheckSource(src, o.SHA256); err != nil {
		return nil, err
	}
	want := strings.ToLower(strings.TrimSpace(o.SHA256))
	unlock, err := lockData(ctx, o.Data, o.Waiting)
	if err != nil {
		return nil, err
	}
	defer unlock()
	plugins := installed.PluginsDir(o.Data)
	if err := os.MkdirAll(plugins, 0o700); err != nil {
		return nil, err
	}
	staging, err := os.MkdirTemp(o.Data, ".install-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(staging)

	archiveSHA, err := stage(ctx, src, staging, &o)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRefused, err)
	}
	m, mdata, wasm, err := check(staging, want, archiveSHA)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRefused, err)
	}
	if err := collisions(o.Data, m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRefused, err)
	}
	// A --grant the manifest does not ask for is the owner's typo: said
	// before the seconds of compiling, not after (decide reads it again).
	if _, err := ParseCapabilities(o.Grants, m); err != nil {
		return nil, err
	}
	if err := compile(ctx, m, wasm, &o); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRefused, err)
	}

	dest := filepath.Join(plugins, m.Name)
	res := &Result{
		Name: m.Name, Version: m.Version, Dir: dest, SHA256: m.Wasm.SHA256,
		Capabilities: ordered(m.Capabilities, m), Tools: []string{}, Discoverers: []string{},
		Limits: plugin.ManifestLimits(m.Limits),
	}
	for _, t := range m.Tools {
		res.Tools = append(res.Tools, t.Name)
	}
	for _, d := range m.Discoverers {
		res.Discoverers = append(res.Discoverers, d.Name)
	}
	kept := previousGrants(dest, m, res)
	granted, err := decide(m, kept, &o)
	if err != nil {
		return nil, err
	}
	res.Granted = granted
	res.NotGranted = ordered(slices.DeleteFunc(slices.Clone(m.Capabilities), func(c abi.Capability) bool {
		return slices.Contains(granted, c)
	}), m)
	pin := installed.Grants{Granted: granted, SHA256: m.Wasm.SHA256, ManifestSHA256: installed.Hash(mdata), Space: stateSpace(dest)}
	if err := installed.WriteGrants(staging, pin); err != nil {
		return nil, err
	}
	if err := swapIn(o.Data, staging, dest, &o); err != nil {
		return nil, err
	}
	if pr, err := PruneCache(o.Data, o.Cache); err == nil {
		res.CachePrunedBytes = pr.RemovedBytes
	}
	return res, nil
}

// check validates the staged plugin: a complete, valid manifest; its wasm
// present, within the size cap, and matching both the manifest's sha256
// and the owner's, when given. archiveSHA is the sha256 of the archive
// the plugin came in ("" for a folder).
func check(dir, want, archiveSHA string) (*manifest.Manifest, []byte, []byte, error) {
	mdata, err := readCapped(filepath.Join(dir, manifest.FileName), manifest.MaxSize)
	if err != nil {
		return nil, nil, nil, err
	}
	m, err := manifest.Decode(mdata)
	if err != nil {
		if unbuilt(mdata) {
			return nil, nil, nil, fmt.Errorf("%w: %s", err, unbuiltHint)
		}
		return nil, nil, nil, err
	}
	wasm, err := readCapped(filepath.Join(dir, m.Wasm.File), MaxWasmSize)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("the manifest names %s: %w", m.Wasm.File, err)
	}
	got := installed.Hash(wasm)
	if got != m.Wasm.SHA256 {
		return nil, nil, nil, fmt.Errorf("sha256 mismatch: %s hashes to %s, the manifest says %s; if you rebuilt the wasm (a plain go build, or another compiler), write the manifest again with juju plugins build DIR (Go) or juju plugins build --wasm FILE DIR, which also update its tools",
			m.Wasm.File, got, m.Wasm.SHA256)
	}
	if want != "" && got != want {
		// An author who publishes an archive often publishes the sha256
		// of the archive itself (sha256sum's): the archive is then the
		// one published, and its wasm's sha256 is the one to pin.
		if want == archiveSHA {
			return nil, nil, nil, fmt.Errorf("%s is the sha256 of the archive, not of the %s it holds: --sha256 takes the wasm's (juju plugins build prints it, juju plugins info shows it); the archive is the one whose sha256 you were given, and its wasm's is %s",
				want, m.Wasm.File, got)
		}
		return nil, nil, nil, fmt.Errorf("sha256 mismatch: %s hashes to %s, --sha256 says %s: this is not the wasm whose sha256 you were given, so do not install it; check the sha256 with the plugin's author (it is the wasm's, which juju plugins build prints)", m.Wasm.File, got, want)
	}
	// Installed, a module of another ABI than its manifest's would fail
	// every call as a plugin that cannot be loaded. A module that is no
	// plugin at all (a WASI command, exporting no juju_describe) reads as
	// ABI 1, having no channel import: compiling it says what it lacks.
	if v, err := plugin.ModuleABI(wasm); err == nil && v != m.ABI && pluginbuild.CheckModule(wasm) == nil {
		return nil, nil, nil, fmt.Errorf("the manifest says abi %d, but %s speaks abi %d (docs/ABI.md, ABI versions); juju plugins build writes the abi its module speaks into the manifest",
			m.ABI, m.Wasm.File, v)
	}
	return m, mdata, wasm, nil
}

// unbuiltHint tells the author how to finish an unbuilt manifest.
const unbuiltHint = "the manifest has no wasm.sha256 or no tools yet; write them with juju plugins build DIR (a Go plugin) or juju plugins build --wasm FILE DIR (a wasm built another way)"

// unbuilt reports a manifest as its author writes it, before juju plugins
// build fills in the tools and the sha256.
func unbuilt(mdata []byte) bool {
	var probe struct {
		Wasm struct {
			SHA256 string `json:"sha256"`
		} `json:"wasm"`
		Tools       []json.RawMessage `json:"tools"`
		Discoverers []json.RawMessage `json:"discoverers"`
	}
	if json.Unmarshal(mdata, &probe) != nil {
		return false
	}
	return probe.Wasm.SHA256 == "" || len(probe.Tools) == 0 && len(probe.Discoverers) == 0
}

// collisions refuses a core plugin's name, and a tool or discoverer name
// that a core plugin or another installed plugin already has. The installed
// version of the same plugin is not counted: an update replaces it.
func collisions(data string, m *manifest.Manifest) error {
	cores, err := core.Plugins()
	if err != nil && !errors.Is(err, core.ErrNotBuilt) {
		return err
	}
	var others []*manifest.Manifest
	for _, c := range cores {
		if c.Manifest.Name == m.Name {
			return fmt.Errorf("%s is the name of a core plugin; choose another name", m.Name)
		}
		others = append(others, c.Manifest)
	}
	nCore := len(others)
	entries, _ := os.ReadDir(installed.PluginsDir(data))
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || e.Name() == m.Name {
			continue
		}
		in, err := installed.ReadInstalled(filepath.Join(installed.PluginsDir(data), e.Name()))
		if in != nil && in.Manifest != nil && (err == nil || in.Manifest.Name == e.Name()) {
			others = append(others, in.Manifest)
		}
	}
	for i, o := range others {
		for _, t := range m.Tools {
			if !slices.ContainsFunc(o.Tools, func(x abi.ToolSpec) bool { return x.Name == t.Name }) {
				continue
			}
			if i < nCore { // a core plugin cannot be removed
				return fmt.Errorf("%w: tool %q is already provided by plugin %s, part of juju; rename the tool", ErrCollision, t.Name, o.Name)
			}
			return fmt.Errorf("%w: tool %q is already provided by plugin %s; rename the tool (or remove %s first)", ErrCollision, t.Name, o.Name, o.Name)
		}
		for _, d := range m.Discoverers {
			if !slices.ContainsFunc(o.Discoverers, func(x abi.DiscovererSpec) bool { return x.Name == d.Name }) {
				continue
			}
			if i < nCore {
				return fmt.Errorf("%w: discoverer %q is already provided by plugin %s, part of juju; rename the discoverer", ErrCollision, d.Name, o.Name)
			}
			return fmt.Errorf("%w: discoverer %q is already provided by plugin %s; rename the discoverer (or remove %s first)", ErrCollision, d.Name, o.Name, o.Name)
		}
	}
	return nil
}

// compile compiles the wasm once into the cache, so the first call after
// install is fast, and checks that the manifest tells the truth about the
// plugin: every tool and discoverer as the plugin describes itself.
func compile(ctx context.Context, m *manifest.Manifest, wasm []byte, o *Options) error {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "compiling %s (%s)…", m.Name, size(int64(len(wasm))))
	}
	start := time.Now()
	d, err := pluginbuild.DescribeCached(ctx, o.Cache, wasm)
	if o.Progress != nil {
		if err != nil {
			fmt.Fprintln(o.Progress, " failed")
		} else {
			fmt.Fprintf(o.Progress, " done in %s\n", time.Since(start).Round(time.Millisecond))
		}
	}
	if errors.Is(err, pluginbuild.ErrDescribe) {
		return fmt.Errorf("%v; the plugin is broken, not your setup: tell its author", err)
	}
	if err != nil {
		return fmt.Errorf("the plugin does not run: %v", err)
	}
	return sameTools(m, d)
}

// sameTools checks the manifest against the plugin's own description: the
// same tools (names, tiers, titles, descriptions, input and output schemas,
// annotations) and the same discoverers (names and globs). A manifest
// written for older code would otherwise serve stale schemas in tools/list.
func sameTools(m *manifest.Manifest, d *abi.Description) error {
	diffs := pluginbuild.Mismatch(m, d)
	if len(diffs) == 0 {
		return nil
	}
	if len(diffs) > 5 {
		diffs = append(diffs[:5], fmt.Sprintf("and %d more", len(diffs)-5))
	}
	return fmt.Errorf("%w: %s; the manifest was not written from this wasm: write it again with juju plugins build DIR (Go), or juju plugins build --wasm FILE DIR (a wasm built another way)",
		ErrStale, strings.Join(diffs, "; "))
}

// previousGrants returns the grants of the installed version at dest that
// the new manifest still asks for, and fills res.Update. A previous version
// that fails its own checks passes nothing on.
func previousGrants(dest string, m *manifest.Manifest, res *Result) []abi.Capability {
	if _, err := os.Stat(dest); err != nil {
		return nil
	}
	up := &Update{Kept: []abi.Capability{}, NewAsks: []abi.Capability{}, Dropped: []abi.Capability{},
		NewTools: []string{}, RemovedTools: []string{}, Retiered: []Retier{}}
	res.Update = up
	prev, err := installed.ReadInstalled(dest)
	if prev != nil && prev.Manifest != nil {
		toolChanges(up, prev.Manifest, m)
	}
	if err != nil {
		if prev != nil && prev.Manifest != nil {
			up.PreviousVersion = prev.Manifest.Version
		}
		up.NewAsks = ordered(m.Capabilities, m)
		return nil
	}
	up.PreviousVersion = prev.Manifest.Version
	old := prev.Manifest.CapabilitySet()
	for _, c := range m.Capabilities {
		if !old[c] {
			up.NewAsks = append(up.NewAsks, c)
		}
	}
	for _, c := range prev.Manifest.Capabilities {
		if !m.CapabilitySet()[c] {
			up.Dropped = append(up.Dropped, c)
		}
	}
	up.Kept = ordered(prev.Granted, m)
	return up.Kept
}

// stateSpace returns the state space of the new install: the installed
// version's, for an update (its state stays the plugin's), else a new one,
// so a plugin installed after a remove never reads the state of the one
// removed. An installed version pinned before spaces were kept passes its
// empty one on, and with it the state under the plugin's name.
func stateSpace(dest string) string {
	if pin, err := installed.ReadPin(dest); err == nil {
		return pin.Space
	}
	return installed.NewSpace()
}

// decide returns the grants of the new install: those kept from a previous
// version, those named in o.Grants, and those the owner confirms.
func decide(m *manifest.Manifest, kept []abi.Capability, o *Options) ([]abi.Capability, error) {
	flagged, err := ParseCapabilities(o.Grants, m)
	if err != nil {
		return nil, err
	}
	granted := append(slices.Clone(kept), flagged...)
	for _, c := range m.Capabilities {
		if slices.Contains(granted, c) || o.Confirm == nil {
			continue
		}
		yes, err := o.Confirm(c, Words(c))
		if err != nil {
			return nil, err
		}
		if yes {
			granted = append(granted, c)
		}
	}
	return ordered(granted, m), nil
}

// errNoExchange is exchange's answer where folders cannot be swapped in
// one step.
var errNoExchange = errors.New("no atomic exchange of folders here")

// swapIn moves the staged folder to dest. An installed version is swapped
// with it in one step where the system can (Linux: staging then holds the
// old version, which Install removes); elsewhere it is first moved aside
// into a .old-* folder and put back if the new one cannot take its place,
// or by sweep if juju dies in between. At no step does a crash lose both.
func swapIn(data, staging, dest string, o *Options) error {
	if _, err := os.Stat(dest); err != nil {
		return os.Rename(staging, dest)
	}
	err := errNoExchange
	if !o.twoStep {
		err = exchange(staging, dest)
	}
	if err == nil {
		o.step("exchanged")
		return nil
	}
	if !errors.Is(err, errNoExchange) {
		return err
	}
	aside, err := os.MkdirTemp(data, ".old-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(aside)
	old := filepath.Join(aside, filepath.Base(dest))
	if err := os.Rename(dest, old); err != nil {
		return err
	}
	o.step("aside")
	if err := os.Rename(staging, dest); err != nil {
		return errors.Join(err, os.Rename(old, dest))
	}
	o.step("swapped")
	return nil
}

// step tells the test's fault hook, if any, that swapIn reached a step.
func (o *Options) step(name string) {
	if o.fault != nil {
		o.fault(name)
	}
}

// sweep finishes what an interrupted lifecycle command left in the data
// directory: a plugin an update had moved aside (.old-*) goes back in place
// when the new one never took it, and the rest (a staging folder, a
// replaced version, a removed plugin) is deleted. It runs under the lock,
// so none of them belongs to a command still running.
func sweep(data string) {
	entries, _ := os.ReadDir(data)
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() {
			continue
		}
		if strings.HasPrefix(n, ".old-") {
			restore(filepath.Join(data, n), installed.PluginsDir(data))
		}
		if strings.HasPrefix(n, ".install-") || strings.HasPrefix(n, ".old-") || strings.HasPrefix(n, ".remove-") {
			os.RemoveAll(filepath.Join(data, n))
		}
	}
}

// restore moves each plugin folder in aside back into plugins when plugins
// holds none of its name.
func restore(aside, plugins string) {
	entries, _ := os.ReadDir(aside)
	for _, e := range entries {
		dest := filepath.Join(plugins, e.Name())
		if _, err := os.Lstat(dest); !errors.Is(err, fs.ErrNotExist) || !e.IsDir() {
			continue
		}
		if os.MkdirAll(plugins, 0o700) == nil {
			os.Rename(filepath.Join(aside, e.Name()), dest)
		}
	}
}

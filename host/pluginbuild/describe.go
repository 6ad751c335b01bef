package pluginbuild

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// Describe runs the juju_describe export of a plugin's wasm in juju's
// runtime and returns the tools and discoverers it reports. The plugin is
// granted nothing: every host function it imports answers
// CAPABILITY_DENIED. A failure says why, as the runtime logged it.
func Describe(ctx context.Context, wasm []byte) (*abi.Description, error) {
	return DescribeCached(ctx, "", wasm)
}

// MaxDescription bounds the juju_describe output juju decodes. What it
// describes becomes the manifest, of at most manifest.MaxSize (1 MiB)
// written indented; juju's core module, which describes two plugins'
// tools (core's and core-exec's) in one output, writes 130 KB. Four times
// the manifest's bound leaves room for any real description, written
// indented too, and refuses one of tens of megabytes (a file embedded by
// mistake) before decoding it costs hundreds of megabytes and seconds.
const MaxDescription = 4 * manifest.MaxSize

// sizeWords is n bytes as the owner reads it.
func sizeWords(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// describeTimeout bounds the start of the instance and its juju_describe
// call (the runtime's default when 0); tests shorten it.
var describeTimeout time.Duration

// ErrDescribe is the error of a plugin whose juju_describe failed.
var ErrDescribe = errors.New("the plugin's juju_describe failed")

// DescribeCached is Describe with wazero's compilation cache in cacheDir
// (in memory when empty), so that describing an unchanged plugin again
// costs no compilation. A failed juju_describe is ErrDescribe saying what
// the runtime saw of that call alone (not of the warm-up call the runtime
// makes beside it), in words for the plugin's author or owner rather than
// those a tool's failure gives the model.
func DescribeCached(ctx context.Context, cacheDir string, wasm []byte) (*abi.Description, error) {
	logs := &describeLog{}
	rt, err := plugin.NewRuntime(plugin.Options{Instances: 1, CacheDir: cacheDir, Logger: slog.New(logs), Timeout: describeTimeout})
	if err != nil {
		return nil, err
	}
	defer rt.Close(context.Background())
	d, err := DescribeIn(ctx, rt, wasm)
	var aerr *abi.Error
	if err != nil && errors.As(err, &aerr) {
		return nil, fmt.Errorf("%w: %s", ErrDescribe, logs.cause(aerr))
	}
	return d, err
}

// DescribeIn is Describe in a runtime of the caller's, whose compilation
// cache a later load of the same wasm can then reuse.
func DescribeIn(ctx context.Context, rt *plugin.Runtime, wasm []byte) (*abi.Description, error) {
	if err := CheckModule(wasm); err != nil {
		return nil, err
	}
	fns, err := stubs(wasm)
	if err != nil {
		return nil, err
	}
	version, err := plugin.ModuleABI(wasm)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(wasm)
	m := &manifest.Manifest{
		ABI:     version,
		Name:    "describe",
		Version: "0",
		Wasm:    manifest.Wasm{File: WasmFile, SHA256: hex.EncodeToString(sum[:])},
	}
	p := rt.Load(m, func() ([]byte, error) { return wasm, nil }, nil, fns)
	defer p.Close(context.Background())
	out, aerr := p.Invoke(ctx, hostfns.Caller{Plugin: m.Name}, abi.ExportDescribe, nil)
	if aerr != nil {
		return nil, fmt.Errorf("pluginbuild: %s: %w", abi.ExportDescribe, aerr)
	}
	if len(out) > MaxDescription {
		return nil, fmt.Errorf("%w: it returned a description of %s, more than the %d MiB juju reads (a manifest holds at most %d MiB); describe the tools in fewer words",
			ErrDescribe, sizeWords(len(out)), MaxDescription>>20, manifest.MaxSize>>20)
	}
	var d abi.Description
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("pluginbuild: %s returned a malformed description (docs/ABI.md, The description): %w", abi.ExportDescribe, err)
	}
	if err := CheckExports(wasm, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// stubs answers every host function the module imports from juju's
// namespaces, whatever its name, so that describing a plugin never depends
// on which host functions exist yet.
func stubs(wasm []byte) ([]hostfns.Func, error) {
	var names []string
	for _, ns := range []string{abi.HostNamespace, abi.ChannelNamespace} {
		n, err := plugin.ImportedFuncs(wasm, ns)
		if err != nil {
			return nil, err
		}
		names = append(names, n...)
	}
	var fns []hostfns.Func
	seen := map[string]bool{abi.ChannelOutput: true} // the runtime's own
	for _, name := range names {
		if !seen[name] {
			seen[name] = true
			fns = append(fns, hostfns.Func{Name: name, Handle: denied(name)})
		}
	}
	return fns, nil
}

func denied(name string) func(context.Context, []byte, []byte) ([]byte, []byte) {
	return func(context.Context, []byte, []byte) ([]byte, []byte) {
		return hostfns.ErrorHeader(abi.Errorf(abi.CapabilityDenied, "%s is not available while a plugin is described", name)), nil
	}
}

// describeLog is a slog handler that keeps what the runtime logs of the
// juju_describe call: its failure or its timeout.
type describeLog struct {
	mu      sync.Mutex
	start   string // the time limit its instance's start ran out of
	timeout string // the time limit it ran out of
	err     string // the error it failed with
	rc      string // or the failure code it returned
}

func (h *describeLog) Enabled(context.Context, slog.Level) bool { return true }
func (h *describeLog) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *describeLog) WithGroup(string) slog.Handler            { return h }

func (h *describeLog) Handle(_ context.Context, r slog.Record) error {
	var export, err, limit, rc string
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "export":
			export = a.Value.String()
		case "err":
			err = a.Value.String()
		case "limit":
			limit = a.Value.String()
		case "rc":
			rc = a.Value.String()
		}
		return true
	})
	// The runtime has one instance here: one that cannot start is the
	// describe call's.
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.Message == plugin.StartTimedOut {
		h.start = limit
		return nil
	}
	if export != abi.ExportDescribe && r.Message != "plugin instance failed to start" {
		return nil
	}
	if limit != "" {
		h.timeout = limit
	} else if err != "" || rc != "" && rc != "0" {
		h.err, h.rc = err, rc
	}
	return nil
}

// maxCause bounds the plugin's own error text in the message: the first
// line, cut to a line of a terminal or two.
const maxCause = 200

// cause says how the juju_describe call failed, from what the runtime
// logged of it, or from the runtime's answer aerr when it logged nothing.
func (h *describeLog) cause(aerr *abi.Error) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.start != "":
		return fmt.Sprintf("its instance did not start within %s: the module's _initialize (a Go package's init, top-level code) never returned; a plugin starts at once, without waiting or looping", h.start)
	case h.timeout != "":
		return fmt.Sprintf("it did not finish within %s; a plugin describes itself at once, without waiting for anything", h.timeout)
	case h.err != "":
		first, _, _ := strings.Cut(h.err, "\n")
		return "it failed: " + abi.Cut(strings.TrimSpace(first), maxCause)
	case h.rc != "":
		return "it returned the failure code " + h.rc
	}
	return fmt.Sprintf("it did not answer (%s)", aerr.Code)
}

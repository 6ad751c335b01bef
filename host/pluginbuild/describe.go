package pluginbuild

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"

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

// DescribeCached is Describe with wazero's compilation cache in cacheDir
// (in memory when empty), so that describing an unchanged plugin again
// costs no compilation.
func DescribeCached(ctx context.Context, cacheDir string, wasm []byte) (*abi.Description, error) {
	logs := &lastError{}
	rt, err := plugin.NewRuntime(plugin.Options{Instances: 1, CacheDir: cacheDir, Logger: slog.New(logs)})
	if err != nil {
		return nil, err
	}
	defer rt.Close(context.Background())
	d, err := DescribeIn(ctx, rt, wasm)
	if err != nil && logs.get() != "" {
		return nil, fmt.Errorf("%w: %s", err, logs.get())
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

// lastError is a slog handler that keeps the last "err" attribute the
// runtime logs, so that a failed describe can say why.
type lastError struct {
	mu  sync.Mutex
	err string
}

func (h *lastError) Enabled(context.Context, slog.Level) bool { return true }
func (h *lastError) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *lastError) WithGroup(string) slog.Handler            { return h }

func (h *lastError) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "err" {
			h.mu.Lock()
			h.err = a.Value.String()
			h.mu.Unlock()
		}
		return true
	})
	return nil
}

func (h *lastError) get() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}

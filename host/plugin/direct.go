package plugin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"

	"github.com/jujutools/juju/internal/wasmstop"
	"github.com/jujutools/juju/sdk/abi"
)

// A plugin whose module speaks ABI 2 and imports only from juju:channel
// and WASI (every plugin built with juju's Go SDK, the core plugins among
// them) never uses Extism's kernel: its input, its output and every host
// function's bytes cross through the instance's channel. Such a module is
// run on wazero directly. Through Extism every call of an export costs
// seven more calls into the kernel module (reset, alloc, input_set,
// error_get, output_offset, output_length, and the export looked up
// afresh), each of which builds a new wazero call engine and, with the
// deadline checks on, starts and wakes a goroutine; run directly, an
// instance keeps one call engine per export and a call is one wasm call.
// A module that imports from Extism's namespaces (an ABI 1 plugin, or an
// ABI 2 one that also uses a PDK's kernel memory) keeps running through
// Extism.

// extismNamespaces are the import modules only Extism provides.
var extismNamespaces = []string{"extism:host/env", abi.HostNamespace}

// runsDirect reports whether a module of manifest version version with
// these imports runs on wazero without Extism.
func runsDirect(version int, imports []Import) bool {
	if version < abi.VersionChannel {
		return false
	}
	for _, im := range imports {
		if slices.Contains(extismNamespaces, im.Module) {
			return false
		}
	}
	return true
}

// directModule is a compiled ABI 2 module in a wazero runtime of its own,
// with WASI and the juju:channel host functions instantiated beside it. The
// plugins that run the same wasm under the same limits share one (core and
// core-exec run the core module): one compilation, one copy of the machine
// code and of the decoded module. Each plugin keeps its own instances, and
// every host function serves the plugin of the call running (call.p), so
// each instance holds its own plugin's grants alone.
type directModule struct {
	rt   wazero.Runtime
	code wazero.CompiledModule
	eng  engine // closed after rt: it holds the machine code
	// stopGlobal: the module was instrumented (wasmstop), and an instance
	// is stopped by setting its stop flag, a global, not by closing it
	stopGlobal bool

	// wasmBytes is the size of the wasm compiled, counted as loaded
	// (moduleLoaded) from the compilation until close.
	wasmBytes int64

	key  moduleKey
	done chan struct{} // closed when the compilation ended; then err is set
	err  error
	refs int // the plugins holding it; guarded by Runtime.mu
}

// moduleKey says which plugins may share a directModule: the same wasm,
// the same memory cap (part of the compilation), and host functions of the
// same names in the same order (linked by index). The wasm is the same
// when the sha256 the manifests pin is: an installed plugin's bytes were
// hashed before compiling. An embedded plugin's are not hashed again (see
// LoadEmbedded), so its key also holds where its bytes lie: two core
// plugins share a module only when they read the very same bytes of
// juju's binary (core.Plugin.Wasm).
type moduleKey struct {
	sha256 string
	memMiB int
	fns    string
	at     uintptr // embedded: the address of the wasm's first byte
	size   int
}

// directKey is p's moduleKey for wasm; ok is false when p cannot share
// (its manifest pins no hash).
func (p *Plugin) directKey(wasm []byte) (moduleKey, bool) {
	if p.Manifest.Wasm.SHA256 == "" || len(wasm) == 0 {
		return moduleKey{}, false
	}
	names := make([]string, len(p.fns))
	for i, f := range p.fns {
		names[i] = f.Name
	}
	k := moduleKey{sha256: p.Manifest.Wasm.SHA256, memMiB: p.memMiB, fns: strings.Join(names, "\x00")}
	if p.embedded {
		k.at, k.size = uintptr(unsafe.Pointer(unsafe.SliceData(wasm))), len(wasm)
	}
	return k, true
}

// directModule returns the compiled module p runs: the one another plugin
// compiled or is compiling for the same key, or a new compilation of wasm.
// The caller holds a reference, which closeDirect gives back.
func (r *Runtime) directModule(ctx context.Context, p *Plugin, wasm []byte) (*directModule, error) {
	key, shared := p.directKey(wasm)
	if !shared {
		m, err := p.compileDirect(ctx, wasm)
		if m != nil {
			m.refs = 1
		}
		return m, err
	}
	r.mu.Lock()
	if m := r.modules[key]; m != nil {
		m.refs++
		r.mu.Unlock()
		<-m.done
		if m.err != nil {
			return nil, m.err // the compiler dropped it from the map
		}
		return m, nil
	}
	pending := &directModule{key: key, done: make(chan struct{}), refs: 1}
	if r.modules == nil {
		r.modules = map[moduleKey]*directModule{}
	}
	r.modules[key] = pending
	r.mu.Unlock()

	m, err := p.compileDirect(ctx, wasm)
	r.mu.Lock()
	if err != nil {
		pending.err = err
		delete(r.modules, key) // a later load compiles afresh
	} else {
		pending.rt, pending.code, pending.eng, pending.stopGlobal, pending.wasmBytes = m.rt, m.code, m.eng, m.stopGlobal, m.wasmBytes
	}
	r.mu.Unlock()
	close(pending.done)
	if err != nil {
		return nil, err
	}
	return pending, nil
}

// closeDirect gives back a plugin's reference to m and, when it was the
// last one, closes m: its compiled module, its runtime and its engine, so
// that the machine code goes (once no instance of it is left).
func (r *Runtime) closeDirect(ctx context.Context, m *directModule) error {
	r.mu.Lock()
	m.refs--
	last := m.refs == 0
	if last && r.modules[m.key] == m {
		delete(r.modules, m.key)
	}
	r.mu.Unlock()
	if !last {
		return nil
	}
	return m.close(ctx)
}

// close releases everything m compiled and instantiated.
func (m *directModule) close(ctx context.Context) error {
	defer moduleLoaded(-m.wasmBytes)
	return errors.Join(m.code.Close(ctx), m.rt.Close(ctx), m.eng.close(ctx))
}

// compileDirect compiles wasm in a new runtime and links what it may
// import. A failure closes the runtime. The host functions serve whichever
// plugin the running call belongs to (callFrom), so plugins of the same
// key may share the result.
func (p *Plugin) compileDirect(ctx context.Context, wasm []byte) (*directModule, error) {
	wasm, stopGlobal, err := p.instrument(wasm)
	if err != nil {
		return nil, err
	}
	pages, err := memoryPages(p.memMiB, wasm)
	if err != nil {
		return nil, err
	}
	cm, err := p.compileDirectIn(ctx, p.rt.newEngine(pages, stopGlobal), wasm)
	if err != nil && p.rt.cacheFailed(err) {
		// The on-disk cache failed (full, read-only): compile in memory.
		cm, err = p.compileDirectIn(ctx, p.rt.newEngine(pages, stopGlobal), wasm)
	}
	if cm != nil {
		cm.stopGlobal, cm.wasmBytes = stopGlobal, int64(len(wasm))
		moduleLoaded(cm.wasmBytes)
	}
	return cm, err
}

// instrument returns the wasm to compile, its tables bounded, and whether
// its instances are stopped through its stop flag (see package wasmstop):
// a core module was instrumented when juju was built (buildplugins), and
// its bytes are the binary's own; any other module is instrumented here.
// A module wasmstop does not understand is compiled with its tables
// bounded alone (wasmstop.BoundTables), and wazero stops it
// (CloseOnContextDone); one whose tables cannot be bounded is refused.
func (p *Plugin) instrument(wasm []byte) ([]byte, bool, error) {
	if p.embedded && wasmstop.Marked(wasm) {
		return wasm, true, nil
	}
	out, reason := instrumentModule(wasm)
	if reason == nil {
		return out, true, nil
	}
	out, err := wasmstop.BoundTables(wasm)
	if err != nil {
		return nil, false, fmt.Errorf("plugin %s: %w", p.Name(), err)
	}
	p.rt.log.Info("plugin runs with wazero's slower deadline checks", "plugin", p.Name(), "reason", reason)
	return out, false, nil
}

// instrumentModule is wasmstop.Instrument; tests replace it.
var instrumentModule = wasmstop.Instrument

func (p *Plugin) compileDirectIn(ctx context.Context, eng engine, wasm []byte) (*directModule, error) {
	rt := wazero.NewRuntimeWithConfig(ctx, eng.cfg)
	err := func() error {
		if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
			return fmt.Errorf("linking WASI: %w", err)
		}
		b := rt.NewHostModuleBuilder(abi.ChannelNamespace)
		i64 := []api.ValueType{api.ValueTypeI64}
		for i, f := range p.fns {
			b.NewFunctionBuilder().WithGoFunction(api.GoFunc(func(ctx context.Context, stack []uint64) {
				stack[0] = serveDirect(ctx, i, stack[0])
			}), i64, i64).Export(f.Name)
		}
		b.NewFunctionBuilder().WithGoFunction(api.GoFunc(func(ctx context.Context, stack []uint64) {
			stack[0] = takeOutput(ctx, stack[0])
		}), i64, i64).Export(abi.ChannelOutput)
		if _, err := b.Instantiate(ctx); err != nil {
			return fmt.Errorf("linking %s: %w", abi.ChannelNamespace, err)
		}
		return nil
	}()
	if err != nil {
		rt.Close(ctx)
		eng.close(ctx)
		return nil, err
	}
	code, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		rt.Close(ctx)
		eng.close(ctx)
		return nil, err
	}
	return &directModule{rt: rt, code: code, eng: eng}, nil
}

// instantiate makes a new instance of the module under cfg (ctx carries
// the instance's memory allocator). It runs no guest code: _start is not
// called (WithStartFunctions), and a module with a start section, which
// wazero would run here whatever the config, was refused before it
// compiled (ModuleInfo); initialize runs the guest runtime's start under
// the call's deadline.
func (m *directModule) instantiate(ctx context.Context, cfg wazero.ModuleConfig) (api.Module, error) {
	// An anonymous module: any number of instances may live side by side.
	return m.rt.InstantiateModule(ctx, m.code, cfg.WithName("").WithStartFunctions())
}

// exported returns the instance's function export, keeping it: a wazero
// function keeps its call engine (its stack) from call to call.
func (inst *instance) exported(name string) api.Function {
	if f, ok := inst.fns[name]; ok {
		return f
	}
	f := inst.mod.ExportedFunction(name)
	if inst.fns == nil {
		inst.fns = make(map[string]api.Function, 4)
	}
	inst.fns[name] = f
	return f
}

// startGuest runs the guest runtime's start once, as Extism does for the
// modules it runs: _initialize (a WASI reactor: Go's c-shared, TinyGo,
// Rust's cdylib), or else __wasm_call_ctors. _start is never called.
func (inst *instance) startGuest(ctx context.Context) error {
	for _, name := range []string{"_initialize", "__wasm_call_ctors"} {
		if f := inst.exported(name); f != nil {
			if _, err := f.Call(ctx); err != nil && !exitedZero(err) {
				return fmt.Errorf("failed to initialize runtime: %w", err)
			}
			return nil
		}
	}
	return nil
}

// callDirect calls export in a directly run instance and returns its
// return code, as Extism reports one: the export's i32, or the exit code
// of a proc_exit, 0 for an export without results.
func (inst *instance) callDirect(ctx context.Context, export string) (uint32, error) {
	f := inst.exported(export)
	if f == nil {
		return 1, fmt.Errorf("unknown function: %s", export)
	}
	def := f.Definition()
	results := len(def.ResultTypes())
	if results > 1 || len(def.ParamTypes()) > 0 {
		return 1, fmt.Errorf("function %s takes %d parameters and has %d results, expected none and 0 or 1", export, len(def.ParamTypes()), results)
	}
	// The instance's own stack word: a call allocates nothing for its result.
	err := f.CallWithStack(ctx, inst.stack[:])
	var exit *sys.ExitError
	switch {
	case errors.As(err, &exit): // the module is closed now (instance.exited)
		if exit.ExitCode() == 0 {
			err = nil
		}
		return exit.ExitCode(), err
	case err != nil:
		return 1, err
	case results == 1:
		return api.DecodeU32(inst.stack[0]), nil
	}
	return 0, nil
}

// exitedZero reports an error that is only a proc_exit(0).
func exitedZero(err error) bool {
	var exit *sys.ExitError
	return errors.As(err, &exit) && exit.ExitCode() == 0
}

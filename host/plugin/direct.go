package plugin

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"

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
// with WASI and the juju:channel host functions instantiated beside it.
type directModule struct {
	rt   wazero.Runtime
	code wazero.CompiledModule
}

// compileDirect compiles wasm in a new runtime and links what it may
// import. A failure closes the runtime.
func (p *Plugin) compileDirect(ctx context.Context, cfg wazero.RuntimeConfig, wasm []byte) (*directModule, error) {
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	err := func() error {
		if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
			return fmt.Errorf("linking WASI: %w", err)
		}
		b := rt.NewHostModuleBuilder(abi.ChannelNamespace)
		i64 := []api.ValueType{api.ValueTypeI64}
		for _, f := range p.fns {
			b.NewFunctionBuilder().WithGoFunction(api.GoFunc(func(ctx context.Context, stack []uint64) {
				stack[0] = p.serveChannel(ctx, f, stack[0])
			}), i64, i64).Export(f.Name)
		}
		b.NewFunctionBuilder().WithGoFunction(api.GoFunc(func(ctx context.Context, stack []uint64) {
			stack[0] = p.takeOutput(ctx, stack[0])
		}), i64, i64).Export(abi.ChannelOutput)
		if _, err := b.Instantiate(ctx); err != nil {
			return fmt.Errorf("linking %s: %w", abi.ChannelNamespace, err)
		}
		return nil
	}()
	if err != nil {
		rt.Close(ctx)
		return nil, err
	}
	code, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		rt.Close(ctx)
		return nil, err
	}
	return &directModule{rt: rt, code: code}, nil
}

// instantiate makes a new instance of the module under cfg (ctx carries
// the instance's memory allocator). Its start functions are not run:
// initialize runs the guest runtime's start under a deadline.
func (m *directModule) instantiate(ctx context.Context, cfg wazero.ModuleConfig) (api.Module, error) {
	// An anonymous module: any number of instances may live side by side.
	return m.rt.InstantiateModule(ctx, m.code, cfg.WithName("").WithStartFunctions())
}

func (m *directModule) close(ctx context.Context) error { return m.rt.Close(ctx) }

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
	if n := len(f.Definition().ResultTypes()); n > 1 {
		return 1, fmt.Errorf("function %s has %d results, expected 0 or 1", export, n)
	}
	res, err := f.Call(ctx)
	var exit *sys.ExitError
	if errors.As(err, &exit) {
		if exit.ExitCode() == 0 {
			err = nil
		}
		if len(res) == 0 {
			res = []uint64{api.EncodeU32(exit.ExitCode())}
		}
	}
	if len(res) > 0 {
		return api.DecodeU32(res[0]), err
	}
	if err != nil {
		return 1, err
	}
	return 0, nil
}

// exitedZero reports an error that is only a proc_exit(0).
func exitedZero(err error) bool {
	var exit *sys.ExitError
	return errors.As(err, &exit) && exit.ExitCode() == 0
}

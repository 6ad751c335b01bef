package pluginbuild

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/internal/wasmstop"
	"github.com/jujutools/juju/sdk/abi"
)

// Linked lists the modules juju links into every plugin, the only ones a
// plugin may import from: the Extism kernel, juju's host functions, the
// ABI 2 channel functions (juju:channel), and WASI
// preview 1 (available, not required; no directories, no environment).
var Linked = []string{"extism:host/env", abi.HostNamespace, abi.ChannelNamespace, "wasi_snapshot_preview1"}

// ErrModule wraps every problem CheckModule and CheckExports find.
var ErrModule = errors.New("pluginbuild: the wasm cannot be a juju plugin")

// CheckModule reads a module's imports, exports and tables, without
// running it, and says what would stop juju from instantiating it or
// asking it what it is: a start section (wasmstop.ErrStart), an import
// from a module juju does not link (AssemblyScript's env.abort), no
// juju_describe export, tables past juju's bounds (wasmstop.BoundTables),
// or counts past what the module's bytes hold (wasmstop.CheckCounts).
func CheckModule(wasm []byte) error {
	imports, exports, err := plugin.ModuleInfo(wasm)
	if errors.Is(err, wasmstop.ErrStart) || errors.Is(err, wasmstop.ErrCounts) {
		return fmt.Errorf("%w: %w (docs/ABI.md, Memory, WASI and the kernel)", ErrModule, err)
	}
	if err != nil {
		return fmt.Errorf("%w: %v (a wasm module begins with the bytes \\0asm)", ErrModule, err)
	}
	if _, err := wasmstop.BoundTables(wasm); err != nil {
		return fmt.Errorf("%w: %v (docs/ABI.md, Memory, WASI and the kernel)", ErrModule, err)
	}
	var bad []string
	for _, im := range imports {
		if !slices.Contains(Linked, im.Module) {
			bad = append(bad, im.Module+"."+im.Name)
		}
	}
	if len(bad) > 0 {
		hint := ""
		if slices.Contains(bad, "env.abort") {
			hint = " AssemblyScript imports env.abort unless the build names a function of the module instead (asc --use abort=FILE/myAbort, as the Extism AssemblyScript PDK shows)."
		}
		return fmt.Errorf("%w: it imports %s, which juju does not provide; a plugin may import only from %s (docs/ABI.md).%s",
			ErrModule, strings.Join(bad, ", "), strings.Join(Linked, ", "), hint)
	}
	if !slices.Contains(exports, abi.ExportDescribe) {
		hint := ""
		if !slices.ContainsFunc(exports, func(e string) bool { return strings.HasPrefix(e, "juju_") }) {
			// Go's compiler ignores TinyGo's //export: the functions are
			// there, unexported.
			hint = ". The build exported none of juju's functions: with Go, mark each with //go:wasmexport NAME (//export NAME is TinyGo's, which go build ignores); with Rust, #[plugin_fn] or #[no_mangle] pub extern \"C\""
		}
		return fmt.Errorf("%w: it exports no %s function, which juju calls to learn the plugin's tools and discoverers (docs/ABI.md, Exports); it exports %s%s",
			ErrModule, abi.ExportDescribe, exportList(exports), hint)
	}
	return nil
}

// CheckExports says whether a module exports what its description needs:
// juju_call for tools, juju_discover for discoverers.
func CheckExports(wasm []byte, d *abi.Description) error {
	_, exports, err := plugin.ModuleInfo(wasm)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrModule, err)
	}
	for _, need := range []struct {
		export string
		what   string
		n      int
	}{{abi.ExportCall, "tools", len(d.Tools)}, {abi.ExportDiscover, "discoverers", len(d.Discoverers)}} {
		if need.n > 0 && !slices.Contains(exports, need.export) {
			return fmt.Errorf("%w: it describes %d %s but exports no %s function to serve them (docs/ABI.md, Exports)",
				ErrModule, need.n, need.what, need.export)
		}
	}
	return nil
}

func exportList(names []string) string {
	if len(names) == 0 {
		return "no function"
	}
	if len(names) > 8 {
		return strings.Join(names[:8], ", ") + " …"
	}
	return strings.Join(names, ", ")
}

// Package plugin runs juju's wasm plugins on wazero: through the Extism Go
// SDK for a module that uses Extism's convention (ABI 1, any PDK), directly
// for an ABI 2 module that imports nothing from Extism (every plugin built
// with juju's Go SDK, the core plugins among them; see direct.go).
//
// A Runtime holds what plugins share: the on-disk compilation cache and the
// default limits. A Plugin is one manifest with its wasm, the capabilities it
// was granted and the host functions it may import. It compiles lazily (or
// when Warm is called, in the background) and keeps a pool of instances so
// concurrent calls run concurrently. Every call runs under a time limit, with
// the module closed when its context ends, and under a memory cap; a trap, a
// timeout or a memory blow-up becomes a PLUGIN_FAILED (or TIMEOUT) result and
// the instance is dropped, never reused. The host lives on.
//
// Plugins get no WASI preopened directories and no Extism HTTP (no allowed
// hosts): every host function they can import is a hostfns.Func, checked
// against the plugin's grants before it runs.
package plugin

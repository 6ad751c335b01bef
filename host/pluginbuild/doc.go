// Package pluginbuild builds juju plugins from Go source and keeps their
// manifests honest.
//
// Compile runs the go command for GOOS=wasip1 GOARCH=wasm with
// -buildmode=c-shared; Stamp writes a plugin folder (manifest.json with the
// wasm's sha256, and the wasm) the way the host loads it; Describe runs the
// plugin's juju_describe export in the real runtime; Generate rewrites a
// source manifest's tools from that description, keeping the plugin's
// identity, and Compare reports where a committed manifest has drifted from
// the code. The tool schemas in a committed manifest are thereby a golden
// snapshot of the Go types they are generated from.
//
// ForTest builds a plugin once per test binary for tests elsewhere in the
// module.
package pluginbuild

// Package manifest decodes and validates plugin manifests (manifest.json).
//
// A manifest is decoded strictly: unknown fields, trailing data, an ABI
// version other than abi.Version, unknown capabilities, invalid tool names
// or schemas are all errors, so a typo never silently widens or narrows what
// a plugin may do. The wasm's sha256 is part of the manifest and is checked
// by the runtime before anything is compiled.
package manifest

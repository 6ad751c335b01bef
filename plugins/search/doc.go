// Package search holds juju's core search and information tools:
// search_code, read_instructions and environment_info. They need fs.read
// and nothing else.
//
// The search itself runs on the host through the juju_search host function
// (ripgrep, with an argument list the host builds and a policy check of
// every file it reports); when the host has no ripgrep, the tool searches
// by itself over the fs host functions, under a time cap, and says when the
// result is partial. Instruction files are read through the fs host
// functions, so the path policy and secret denial apply; the
// environment is described by the host (juju_environment), which probes
// the programs itself, so these tools never run anything.
//
// The package is a library linked into juju's core plugin (plugins/core):
// each wasm module costs its own compiled code and warm instance.
package search

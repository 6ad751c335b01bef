// Package testplugins holds deliberately bad juju plugins, and one good one,
// that tests build to prove the host survives them: trap (crashes), loop
// (never returns), oom (allocates without bound), nogrant (calls a host
// function it was not granted), garbage (sends malformed requests to a host
// function), echo (behaves), reader (asks for fs.read, for the grant and
// revoke tests), writer (writes through the journal with fs.write, as a
// third-party plugin would), tiers and gated (tools of every tier, for the
// trust-mode gate), raw (the raw Extism ABI, no SDK: a plugin as an author
// in another language writes one, for juju plugins build --wasm), kernel
// (ABI 1, written with the Extism PDK alone), bulk (moves bytes for the
// transport benchmarks), discoverprobe (a discoverer that tries to run,
// write and fetch, and a tier X tool that runs the discoverers), flood
// (writes to its channel without end, or answers with more images than a
// client takes), taskflood (as many discoverers as a manifest may, each
// answering the most tasks it may), hugeout (a tool and a discoverer
// answering tens of megabytes of empty items, through the channel without
// the SDK), fetcher (fetches a URL many times in
// one call, for the audit's bound on the fetches it lists), fakemake (a discoverer whose tasks pass for juju's own make tasks), badutf8 (a
// structured content that is not UTF-8), ints (arguments of Go's sized
// number types, bounded by their schema) and shared (a module that serves two plugins, its own and
// test-shared-reader, as core serves core-exec; sharedreader holds the
// second one's manifest). They are built only by tests, never shipped;
// their tool names start with test_ so they never collide with core tools.
package testplugins

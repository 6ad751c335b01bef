// Package bench holds juju's in-process Go benchmarks: a plugin call against
// the same work done natively, a glob over Go's source tree both ways, the
// host's per-call overhead, a tiny read through each transport (the host
// alone, stdio, HTTP, and mcp-go's HTTP server for reference), a call
// made after a pause, as a client's calls come, and a tools/list. They skip when the core plugins are not
// built into the host (build them with `make plugins`), so that
// `go test ./test/bench` passes anywhere. Compare runs with benchstat:
//
//	go test -run '^$' -bench . -count 10 ./test/bench > new.txt
//	benchstat -col /impl new.txt   # plugin vs native, side by side
//
// The full SPEC §11 report, over stdio against a native baseline server, is
// `make bench` (package test/bench/report).
package bench

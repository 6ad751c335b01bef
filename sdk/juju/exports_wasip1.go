//go:build wasip1

package juju

import (
	"encoding/json"
	"runtime"
)

// exportCall is the plugin's juju_call export: one tool call, a CallRequest
// in, a CallResult out. Failures are inside the result; it returns 0.
//
//go:wasmexport juju_call
func exportCall() int32 {
	outputFrame(serveCall(input()))
	yield()
	return 0
}

// exportDiscover is the plugin's juju_discover export: one discoverer run,
// a DiscoverRequest in, a DiscoverResult out. Failures are inside the
// result; it returns 0.
//
//go:wasmexport juju_discover
func exportDiscover() int32 {
	output(serveDiscover(input()))
	yield()
	return 0
}

// exportDescribe is the plugin's juju_describe export: the Description of
// every registered tool.
//
//go:wasmexport juju_describe
func exportDescribe() int32 {
	d, err := Describe()
	if err != nil {
		setError(err.Error())
		return 1
	}
	b, err := json.Marshal(d)
	if err != nil {
		setError(err.Error())
		return 1
	}
	output(b)
	return 0
}

// yield lets the runtime's other goroutines run before an export returns.
// In a wasip1 module they run only while the export's goroutine waits, and
// a call that never waits would otherwise starve the garbage collector's
// background workers: a collection started in one call then never ends,
// and the heap grows call after call until the instance runs out of memory
// (a thousand or so calls moving a megabyte each, measured).
func yield() { runtime.Gosched() }

//go:build rawdescribetrap

package main

// describe traps, as a plugin with a bug in its description does.
//
//go:wasmexport juju_describe
func describe() int32 {
	var tools []string
	output([]byte(tools[len(tools)-1])) // an index out of range: a trap
	return 0
}

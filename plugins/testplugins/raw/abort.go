//go:build rawabort

package main

import "os"

// AssemblyScript modules import env.abort, which juju does not provide.
//
//go:wasmimport env abort
func abort(msg, file, line, col uint32)

func init() {
	if len(os.Args) > 1<<20 {
		abort(0, 0, 0, 0)
	}
}

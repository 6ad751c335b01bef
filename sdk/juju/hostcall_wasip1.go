//go:build wasip1

package juju

import "github.com/jujutools/juju/sdk/abi"

// The host functions, as wasm imports. Each takes the offset of an Extism
// memory block holding a request frame and returns the offset of a block
// holding the response frame.

//go:wasmimport extism:host/user juju_log
func hostLog(uint64) uint64

//go:wasmimport extism:host/user juju_fs_read
func hostFSRead(uint64) uint64

//go:wasmimport extism:host/user juju_fs_list
func hostFSList(uint64) uint64

//go:wasmimport extism:host/user juju_fs_stat
func hostFSStat(uint64) uint64

//go:wasmimport extism:host/user juju_fs_glob
func hostFSGlob(uint64) uint64

// exchange sends a request frame to host function fn and returns its
// response frame.
func exchange(fn string, frame []byte) ([]byte, error) {
	var imp func(uint64) uint64
	switch fn {
	case abi.FnLog:
		imp = hostLog
	case abi.FnFSRead:
		imp = hostFSRead
	case abi.FnFSList:
		imp = hostFSList
	case abi.FnFSStat:
		imp = hostFSStat
	case abi.FnFSGlob:
		imp = hostFSGlob
	default:
		return nil, errNoHost
	}
	return exchangeVia(imp, fn, frame)
}

// exchangeVia sends a request frame through the import imp. Host functions
// outside the switch above pass their import here themselves, so that a
// plugin imports only the host functions it calls.
func exchangeVia(imp func(uint64) uint64, fn string, frame []byte) ([]byte, error) {
	req := store(frame)
	off := imp(req)
	release(req, len(frame))
	if off == 0 {
		return nil, Errorf(abi.Internal, "the host gave no answer to %s", fn)
	}
	b := readBlock(off)
	release(off, len(b))
	return b, nil
}

// release frees a kernel block worth freeing. Extism resets the kernel's
// memory before every call, so small blocks are left for that: each free
// is a call into the kernel, which costs more than a small block.
func release(offset uint64, n int) {
	if n >= 4<<10 {
		extismFree(offset)
	}
}

//go:build wasip1

package juju

import "github.com/jujutools/juju/sdk/abi"

// The exec and git host functions are imported only by plugins that call
// their wrappers: each wrapper reaches its import directly, so a plugin
// that never runs a command does not import them.

//go:wasmimport extism:host/user juju_exec
func hostExec(uint64) uint64

//go:wasmimport extism:host/user juju_exec_shell
func hostExecShell(uint64) uint64

//go:wasmimport extism:host/user juju_job
func hostJob(uint64) uint64

//go:wasmimport extism:host/user juju_git
func hostGit(uint64) uint64

func viaExec(frame []byte) ([]byte, error) { return callImport(abi.FnExec, hostExec, frame) }
func viaExecShell(frame []byte) ([]byte, error) {
	return callImport(abi.FnExecShell, hostExecShell, frame)
}
func viaJob(frame []byte) ([]byte, error) { return callImport(abi.FnJob, hostJob, frame) }
func viaGit(frame []byte) ([]byte, error) { return callImport(abi.FnGit, hostGit, frame) }

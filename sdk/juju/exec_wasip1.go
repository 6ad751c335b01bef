//go:build wasip1

package juju

// The exec and git host functions are imported only by plugins that call
// their wrappers (see exchangeVia).

//go:wasmimport extism:host/user juju_exec
func hostExec(uint64) uint64

//go:wasmimport extism:host/user juju_exec_shell
func hostExecShell(uint64) uint64

//go:wasmimport extism:host/user juju_job
func hostJob(uint64) uint64

//go:wasmimport extism:host/user juju_git
func hostGit(uint64) uint64

// The imports the wrappers of exec.go call through.
var (
	execImport      = hostExec
	execShellImport = hostExecShell
	jobImport       = hostJob
	gitImport       = hostGit
)

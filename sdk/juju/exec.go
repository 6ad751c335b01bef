package juju

import "github.com/jujutools/juju/sdk/abi"

// Exec runs a program with its arguments, never through a shell (needs the
// exec capability). It returns when the command ends, or when it is handed
// to the background as a job (State "running", JobID set).
func Exec(req abi.ExecRequest) (*abi.ExecResult, error) {
	res, _, err := roundTrip[abi.ExecResult](hostExec, abi.FnExec, req, nil)
	return res, err
}

// ExecShell runs req.Command with bash -c (needs exec.shell); otherwise it
// is Exec.
func ExecShell(req abi.ExecRequest) (*abi.ExecResult, error) {
	res, _, err := roundTrip[abi.ExecResult](hostExecShell, abi.FnExecShell, req, nil)
	return res, err
}

// Job runs one operation on the jobs (needs exec). For abi.JobOutput the
// returned bytes are the output read.
func Job(req abi.JobRequest) (*abi.JobResult, []byte, error) {
	return roundTrip[abi.JobResult](hostJob, abi.FnJob, req, nil)
}

// Git runs `git ARGS…` through the host's checks (needs git) and returns
// git's exit code and stderr, and its stdout.
func Git(req abi.GitRequest) (*abi.GitResult, []byte, error) {
	return roundTrip[abi.GitResult](hostGit, abi.FnGit, req, nil)
}

package abi

// Exec host functions (capabilities exec and exec.shell). FnExec runs one
// command to completion, or until it is handed to the background as a job;
// the job functions follow it.
const (
	FnExec = "juju_exec" // ExecRequest → ExecResult + raw output (see ExecResult); exec, or exec.shell for Command
)

// ExecRequest runs one command. Exactly one of Program (argv, never a
// shell; capability exec) and Command (a shell string run by bash -c;
// capability exec.shell) is set. The child's stdin is empty and its
// environment is scrubbed of secrets.
type ExecRequest struct {
	Program string   `json:"program,omitempty"`
	Args    []string `json:"args,omitempty"`
	Command string   `json:"command,omitempty"`
	// Cwd is relative to the first root, or absolute inside a root; empty
	// means the first root.
	Cwd       string `json:"cwd,omitempty"`
	TimeoutMs int64  `json:"timeoutMs,omitempty"` // 0: the host's default
	// WaitMs bounds how long the call waits before it returns the job id of
	// a command still running (0: the host's background-after limit).
	WaitMs     int64 `json:"waitMs,omitempty"`
	Background bool  `json:"background,omitempty"` // return the job id at once
	Sandbox    bool  `json:"sandbox,omitempty"`    // run under the OS sandbox
	Network    bool  `json:"network,omitempty"`    // with Sandbox: allow the network
	// RawOutput asks for the command's whole stdout, uncut, as the response
	// body (up to the host's cap), for plugins that parse it (rg --json).
	RawOutput bool `json:"rawOutput,omitempty"`
}

// ExecResult describes a finished or backgrounded command. Without
// RawOutput the body is empty and Stdout/Stderr hold head-and-tail cuts;
// with it, the body is the whole stdout.
type ExecResult struct {
	Status
	JobID    string `json:"jobId"`
	State    string `json:"state"`              // running, exited, killed, timeout
	ExitCode *int   `json:"exitCode,omitempty"` // when it exited
	Stdout   string `json:"stdout,omitempty"`
	Stderr   string `json:"stderr,omitempty"`
	// Cut says the output was cut (head and tail kept); the whole is
	// readable from the job's log by offset.
	Cut        bool   `json:"cut,omitempty"`
	DurationMs int64  `json:"durationMs"`
	Sandbox    string `json:"sandbox,omitempty"` // how it was confined: "bubblewrap", "landlock", "none"
}

// Git host function (capability git): runs the git CLI on the workspace
// with a fixed, host-checked argument list — a subcommand from the host's
// allow-list, and never an option that runs other programs or points git
// elsewhere (-c, --exec-path, --git-dir, --upload-pack …).
const FnGit = "juju_git" // GitRequest → GitResult + stdout as the body

// GitRequest runs `git ARGS…` in Cwd (default: the first root).
type GitRequest struct {
	Args []string `json:"args"`
	Cwd  string   `json:"cwd,omitempty"`
}

// GitResult is git's exit code and stderr; stdout is the response body.
type GitResult struct {
	Status
	ExitCode int    `json:"exitCode"`
	Stderr   string `json:"stderr,omitempty"`
}

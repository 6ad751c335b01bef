package abi

// Exec host functions. FnExec (capability exec) runs a program with argv,
// never through a shell; FnExecShell (capability exec.shell) runs a shell
// string with bash -c. Both take an ExecRequest and run the command as a
// job: to completion, or until it is handed to the background. FnJob
// (capability exec) looks after the jobs.
const (
	FnExec      = "juju_exec"       // ExecRequest{Program, Args} → ExecResult; exec
	FnExecShell = "juju_exec_shell" // ExecRequest{Command} → ExecResult; exec.shell
	FnJob       = "juju_job"        // JobRequest → JobResult (+ output bytes for JobOutput); exec
)

// ExecRequest runs one command. Exactly one of Program (argv, never a
// shell; FnExec) and Command (a shell string run by bash -c; FnExecShell)
// is set. The child's stdin is empty, its environment is scrubbed of
// secrets, and it runs in its own session and process group.
type ExecRequest struct {
	Program string   `json:"program,omitempty"`
	Args    []string `json:"args,omitempty"`
	Command string   `json:"command,omitempty"`
	// Cwd is relative to the first root, or absolute inside a root; empty
	// means the first root.
	Cwd       string `json:"cwd,omitempty"`
	TimeoutMs int64  `json:"timeoutMs,omitempty"` // 0: the host's default; the whole process group is killed when it runs out
	// WaitMs bounds how long the call waits before it returns the job id of
	// a command still running (0, or more than the host's background-after
	// limit: that limit).
	WaitMs     int64 `json:"waitMs,omitempty"`
	Background bool  `json:"background,omitempty"` // return the job id at once
	// Bound, with Background, stops the job with the call that started it
	// if that call ends (cancelled by its client, or past its deadline)
	// before it releases the job (JobRelease): run_commands starts its
	// commands so, and a user who stops the call stops them.
	Bound   bool `json:"bound,omitempty"`
	Sandbox bool `json:"sandbox,omitempty"` // run under the OS sandbox, or fail with SANDBOX_UNAVAILABLE
	Network bool `json:"network,omitempty"` // when sandboxed: allow the network (denied by default)
	// MaxOutput is how many bytes of each stream the reply keeps, head and
	// tail together (0: the host's default, 16 KiB).
	MaxOutput int64 `json:"maxOutput,omitempty"`
}

// Job states.
const (
	JobRunning = "running"
	JobExited  = "exited"  // the command ended by itself (ExitCode set; 128+n for a signal juju did not send)
	JobKilled  = "killed"  // killed by juju: cancelled, its output cap, its client or juju gone
	JobTimeout = "timeout" // killed when its timeout ran out
	// JobNotRun is a command of run_commands that never started (Error
	// says why): it has no job, no output and no process.
	JobNotRun = "not_run"
)

// ExecResult describes a job: finished, or still running in the
// background. Stdout and Stderr hold head-and-tail cuts of the output; when
// one was cut, the cut is marked inside the text and the whole stream stays
// readable with JobOutput by offset (StdoutBytes and StderrBytes are the
// full sizes). The desc tags describe it to the model: the command tools
// return it as their structured content.
type ExecResult struct {
	Status
	JobID string `json:"jobId" desc:"The job's id, for job_status, job_wait, job_output and cancel_job."`
	// Command is what runs, as the model wrote it (argv joined with spaces).
	Command string `json:"command" desc:"What runs."`
	// Cwd is the display path of the working folder.
	Cwd string `json:"cwd,omitempty" desc:"Where it runs."`
	// State is JobRunning, JobExited, JobKilled, JobTimeout, or for a
	// command of run_commands that never started, JobNotRun.
	State    string `json:"state" enum:"running,exited,killed,timeout,not_run" desc:"running (in the background), exited (by itself, or by a signal juju did not send), killed (by juju: cancelled, or its output cap), timeout (killed when timeoutMs ran out), not_run (run_commands only: it never started, error says why)."`
	ExitCode *int   `json:"exitCode,omitempty" desc:"The exit code, when it ended by itself: 128+n when signal n ended it, as a shell reports it."`
	Signal   string `json:"signal,omitempty" desc:"The signal that ended it, when juju knows it (a sandboxed command's is known only from exitCode)."`
	Stdout   string `json:"stdout,omitempty" desc:"Standard output; when long, its head and tail with the cut marked in the text."`
	Stderr   string `json:"stderr,omitempty" desc:"Standard error, cut like stdout."`
	// StdoutBytes and StderrBytes are the streams' whole sizes so far.
	StdoutBytes int64 `json:"stdoutBytes" desc:"The whole size of stdout so far; job_output reads any part of it by offset."`
	StderrBytes int64 `json:"stderrBytes" desc:"The whole size of stderr so far."`
	// Cut says a stream was cut (head and tail kept), and StdoutCut and
	// StderrCut where: a reader can tell juju's marker from output that
	// only looks like it.
	Cut        bool       `json:"cut,omitempty" desc:"Some output was cut from stdout or stderr."`
	StdoutCut  *OutputCut `json:"stdoutCut,omitempty" desc:"Where stdout was cut, when it was."`
	StderrCut  *OutputCut `json:"stderrCut,omitempty" desc:"Where stderr was cut, when it was."`
	DurationMs int64      `json:"durationMs" desc:"How long it ran (so far, while running)."`
	// Sandbox says how the command was confined: "bubblewrap+landlock",
	// "bubblewrap", "sandbox-exec" or "none".
	Sandbox string `json:"sandbox,omitempty" desc:"How it was confined: bubblewrap+landlock, bubblewrap, sandbox-exec, or none."`
	// Note is a sentence for the model: why the command ran unconfined under
	// the prefer setting, or that it went to the background.
	Note string `json:"note,omitempty" desc:"What to know: it went to the background, it ran unconfined, or juju killed it (its timeout, its output cap) and what to do then."`
}

// OutputCut says where juju cut a stream it shows as head and tail: the
// text holds the stream's bytes before From, juju's marker line, then the
// stream's bytes from To to its end.
type OutputCut struct {
	From int64 `json:"from" desc:"The first byte cut out: the text starts with the bytes before it."`
	To   int64 `json:"to" desc:"The first byte after the cut: the text ends with the bytes from it on."`
}

// Job operations.
const (
	JobStatus = "status" // the job's ExecResult, without waiting
	JobWait   = "wait"   // wait up to WaitMs (bounded by the host) for the job to end
	JobCancel = "cancel" // kill the job's whole process group
	JobOutput = "output" // bytes of one stream from Offset; the body holds them
	JobList   = "list"   // every job, newest first
	// JobRelease lets a bound job (ExecRequest.Bound) outlive the call
	// that started it: a call releases its jobs just before it answers.
	JobRelease = "release"
)

// JobRequest is one operation on the jobs of this workspace.
type JobRequest struct {
	Op     string `json:"op"`
	JobID  string `json:"jobId,omitempty"`
	WaitMs int64  `json:"waitMs,omitempty"` // JobWait
	Stream string `json:"stream,omitempty"` // JobOutput: "stdout" (default) or "stderr"
	Offset int64  `json:"offset,omitempty"` // JobOutput: the first byte
	Limit  int64  `json:"limit,omitempty"`  // JobOutput: at most this many bytes (0: the host's default)
	// MaxOutput is ExecRequest.MaxOutput for the job in the reply.
	MaxOutput int64 `json:"maxOutput,omitempty"`
}

// JobResult answers a JobRequest. Job is set for every operation but list,
// Jobs for list only. For JobOutput the body holds the bytes from Offset;
// Next is the offset after them and EOF says the stream has nothing more
// yet (the job may still be writing).
type JobResult struct {
	Status
	Job  *ExecResult  `json:"job,omitempty"`
	Jobs []ExecResult `json:"jobs,omitempty"`
	Next int64        `json:"next,omitempty"`
	EOF  bool         `json:"eof,omitempty"`
}

// Git host function (capability git): runs the git CLI on the workspace
// with a fixed, host-checked argument list — a subcommand from the host's
// allow-list, and never an option that runs other programs or points git
// elsewhere (-c, --exec-path, --git-dir, --upload-pack …). Everything after
// a "--" is a path, checked against the path policy. The mutating
// subcommands (add, commit) are served only to exec-tier tools.
const FnGit = "juju_git" // GitRequest → GitResult + stdout as the body

// GitRequest runs `git ARGS…` in Cwd (default: the first root).
type GitRequest struct {
	Args []string `json:"args"`
	Cwd  string   `json:"cwd,omitempty"`
}

// GitResult is git's exit code and stderr; stdout is the response body.
// Skipped lists the paths given to `add` that the host left out because
// the path policy withholds them (secrets, denied paths).
type GitResult struct {
	Status
	ExitCode int      `json:"exitCode"`
	Stderr   string   `json:"stderr,omitempty"`
	Skipped  []string `json:"skipped,omitempty"`
}

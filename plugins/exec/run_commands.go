package exec

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// maxParallel is the most commands run_commands takes.
const maxParallel = 8

// parallelOutput is the output kept per stream per command in run_commands.
const parallelOutput = 6 << 10

// parallelText bounds the escaped text of one stream of one command in
// run_commands' result: twice the bytes kept, so that only output thick
// with escaped control characters is cut by it.
const parallelText = 2 * parallelOutput

// defaultWait stands for the host's background-after limit (50 s unless
// the owner changed it), which caps the call's waits together anyway
// (counted from the call's arrival): the most a wait may ask.
const defaultWait = 10 * time.Minute

// defaultTimeout is the host's timeout of a command that outlasted its
// wait (hostfns/exec.DefaultTimeout), which run_commands gives each.
const defaultTimeout = 10 * time.Minute

// RunCommandsArgs are the arguments of run_commands.
type RunCommandsArgs struct {
	Commands  []string `json:"commands" jsonschema:"required" min:"1" max:"8" desc:"Up to 8 shell command lines, each run with bash -c, all at once."`
	Cwd       string   `json:"cwd,omitempty" desc:"The folder they run in (default: the first root)."`
	WaitMs    int64    `json:"waitMs,omitempty" min:"0" max:"600000" desc:"How long to wait for all of them together; those still running are left in the background with their jobIds. Default and ceiling: the background-after limit (50 s)."`
	TimeoutMs int64    `json:"timeoutMs,omitempty" min:"0" max:"7200000" desc:"Kill each one's process group after this long. Default: 10 minutes."`
	Sandbox   bool     `json:"sandbox,omitempty" desc:"Run them under the OS sandbox (see run_command)."`
	Network   bool     `json:"network,omitempty" desc:"With a sandbox: allow the network."`
}

// RunCommandsResult is the structured content of run_commands.
type RunCommandsResult struct {
	Results []CommandResult `json:"results" desc:"One result per command, in the order given."`
	WallMs  int64           `json:"wallMs" desc:"How long the whole call took."`
}

func init() {
	juju.Tool("run_commands", execTool("Run several commands at once",
		"Runs up to 8 shell command lines concurrently (each with bash -c) and returns one result per command, in order: "+
			"use it for independent checks such as tests, lint and build, which then take as long as the slowest one. "+
			"Each result is like run_command's; a command that could not start carries its error (when none can, for one reason such as the cwd, the call fails with it), and one still running "+
			"after waitMs is left in the background with its jobId.",
		RunCommandsResult{}, runs), runCommands)
}

func runCommands(_ *juju.Call, in RunCommandsArgs) (*juju.Result, error) {
	if len(in.Commands) > maxParallel {
		return nil, juju.Errorf(abi.InvalidArgument, "run_commands takes at most %d commands; split them over several calls", maxParallel)
	}
	start := time.Now()
	wait := defaultWait
	if in.WaitMs > 0 {
		wait = time.Duration(in.WaitMs) * time.Millisecond
	}
	// Each is started in the background only to run them together: it
	// keeps the timeout of a command that outlasted its wait, not the
	// none of one asked to run in the background.
	timeout := in.TimeoutMs
	if timeout == 0 {
		timeout = defaultTimeout.Milliseconds()
	}
	out := RunCommandsResult{Results: make([]CommandResult, len(in.Commands))}
	// Start every command in the background first: the host runs them
	// concurrently while this single-threaded plugin waits for each in turn.
	for i, c := range in.Commands {
		r, err := juju.ExecShell(abi.ExecRequest{
			Command: c, Cwd: in.Cwd, TimeoutMs: timeout, Background: true, Bound: true,
			Sandbox: in.Sandbox, Network: in.Network, MaxOutput: parallelOutput,
		})
		if err != nil {
			out.Results[i] = CommandResult{ExecResult: abi.ExecResult{Command: c, State: abi.JobNotRun}, Error: asError(err)}
			continue
		}
		out.Results[i] = CommandResult{ExecResult: *r}
	}
	if err := sameFailure(out.Results); err != nil {
		// Nothing started, for one reason (the cwd, the sandbox): the
		// call failed, and says so as a call's error does.
		return nil, juju.Errorf(err.Code, "%s", err.Message)
	}
	for i := range out.Results {
		res := &out.Results[i]
		if res.Error != nil {
			continue
		}
		left := wait - time.Since(start)
		op := abi.JobWait
		if left < time.Millisecond {
			op = abi.JobStatus
		}
		r, _, err := juju.Job(abi.JobRequest{Op: op, JobID: res.JobID, WaitMs: left.Milliseconds(), MaxOutput: parallelOutput})
		if err != nil {
			res.Error = asError(err)
			continue
		}
		*res = CommandResult{ExecResult: *r.Job}
		if res.State == abi.JobRunning {
			still := fmt.Sprintf("still running: it continues in the background as %s; use job_wait or job_output", res.JobID)
			if res.Note != "" {
				still = res.Note + "; " + still
			}
			res.Note = still
		}
	}
	// The answer is ready: the commands still running are the caller's
	// to follow. Until here a cancelled call stops them (ExecRequest.Bound).
	for _, r := range out.Results {
		if r.JobID != "" && r.State == abi.JobRunning {
			juju.Job(abi.JobRequest{Op: abi.JobRelease, JobID: r.JobID})
		}
	}
	out.WallMs = time.Since(start).Milliseconds()
	var b strings.Builder
	fence := juju.Fence()
	for i, r := range out.Results {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "[%d/%d] ", i+1, len(out.Results))
		writeCommand(&b, r, fence, parallelText)
	}
	fmt.Fprintf(&b, "\n%d commands in %s\n", len(out.Results), ms(out.WallMs))
	cs := make([]*CommandResult, len(out.Results))
	for i := range out.Results {
		cs[i] = &out.Results[i]
	}
	fitCommands(cs, func() any { return out })
	fitStreams(cs, func() any { return out })
	return juju.Text(b.String()).WithStructured(out), nil
}

// fitStreams leaves out of the structured content v makes the streams of
// cs, the largest first, while it passes what a client takes: eight
// commands with long stdout and stderr pass it together, and the host
// would empty the content's large members, every command's result with
// them (exit codes, job ids). The text shows each stream left out, and
// job_output reads it whole.
func fitStreams(cs []*CommandResult, v func() any) {
	for {
		if js, err := json.Marshal(v()); err != nil || len(js) <= abi.MaxStructured {
			return
		}
		var c *CommandResult
		stream := ""
		for _, r := range cs {
			if c == nil || len(r.Stdout) > len(*pick(c, stream)) {
				c, stream = r, "stdout"
			}
			if len(r.Stderr) > len(*pick(c, stream)) {
				c, stream = r, "stderr"
			}
		}
		if c == nil || *pick(c, stream) == "" {
			return
		}
		*pick(c, stream) = ""
		if stream == "stdout" {
			c.StdoutCut = nil
		} else {
			c.StderrCut = nil
		}
		left := stream + " left out here (the text shows it; job_output reads it whole): with the other commands' output it passed what a result's structured content carries"
		if c.Note != "" {
			left = c.Note + "; " + left
		}
		c.Note = left
	}
}

// pick is c's stdout or stderr, by name.
func pick(c *CommandResult, stream string) *string {
	if stream == "stderr" {
		return &c.Stderr
	}
	return &c.Stdout
}

// sameFailure is the error every command failed to start with, when each
// failed with the same one; nil when one started or their errors differ.
func sameFailure(results []CommandResult) *abi.Error {
	first := results[0].Error
	for _, r := range results {
		if r.Error == nil || *r.Error != *first {
			return nil
		}
	}
	return first
}

// asError turns a host function failure into the abi.Error a result holds.
func asError(err error) *abi.Error {
	if e, ok := juju.AsError(err); ok {
		return &abi.Error{Code: e.Code, Message: e.Message}
	}
	return &abi.Error{Code: abi.Internal, Message: err.Error()}
}

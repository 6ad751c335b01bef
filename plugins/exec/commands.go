package exec

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// RunOptions are the arguments every command tool shares.
type RunOptions struct {
	Cwd        string `json:"cwd,omitempty" desc:"The folder to run in: relative to the first workspace root, or absolute inside a root. Default: the first root."`
	WaitMs     int64  `json:"waitMs,omitempty" min:"0" max:"600000" desc:"How long to wait for the command before returning its jobId while it keeps running in the background. Default and ceiling: juju's background-after limit (50 s unless the owner changed it)."`
	TimeoutMs  int64  `json:"timeoutMs,omitempty" min:"0" max:"7200000" desc:"Kill the command's whole process group after this long. Default: 10 minutes; none with background: true."`
	Background bool   `json:"background,omitempty" desc:"Return the jobId at once and let the command run in the background (a dev server, a watcher): with no timeout unless timeoutMs is given, it runs until it ends, cancel_job stops it, or juju exits."`
	Sandbox    bool   `json:"sandbox,omitempty" desc:"Run under the OS sandbox: writes only inside the workspace roots, the package caches and a private /tmp; .git/hooks read-only; network denied unless network is true. Fails with SANDBOX_UNAVAILABLE when this machine has no working sandbox."`
	Network    bool   `json:"network,omitempty" desc:"With a sandbox: allow the network (denied by default). Pass it for commands that download (npm install, go mod download, pip install)."`
}

func (o RunOptions) request() abi.ExecRequest {
	return abi.ExecRequest{Cwd: o.Cwd, WaitMs: o.WaitMs, TimeoutMs: o.TimeoutMs, Background: o.Background, Sandbox: o.Sandbox, Network: o.Network}
}

// ExecCommandArgs are the arguments of exec_command.
type ExecCommandArgs struct {
	Program string   `json:"program" jsonschema:"required" min:"1" desc:"The program to run: a name looked up on PATH, or a path. No shell is involved."`
	Args    []string `json:"args,omitempty" desc:"Its arguments, each passed as is: quotes, globs, pipes and $ are not interpreted."`
	RunOptions
}

// RunCommandArgs are the arguments of run_command.
type RunCommandArgs struct {
	Command string `json:"command" jsonschema:"required" min:"1" max:"65536" desc:"The shell command line, run with bash -c (at most 64 KiB: write a longer script to a file and run that)."`
	RunOptions
}

// CommandResult is the structured content of exec_command and run_command,
// and of the job tools: the host's abi.ExecResult, and for run_commands
// the error a command could not start with.
type CommandResult struct {
	abi.ExecResult
	Error *abi.Error `json:"error,omitempty" desc:"run_commands only: why this command did not start."`
}

func init() {
	juju.Tool("exec_command", execTool("Execute a program",
		"Runs one program with an argument list, never through a shell: each argument reaches the program exactly as given. "+
			"Returns the exit code and stdout/stderr (long output cut to head and tail, the whole readable with job_output). "+
			fenceNote+
			"stdin is empty and secrets are removed from the environment. A command still running after waitMs is left running "+
			"in the background and its jobId returned. Prefer it to run_command when no shell feature is needed.",
		CommandResult{}, runs), execCommand)
	juju.Tool("run_command", execTool("Run a shell command",
		"Runs a shell command line with bash -c in the workspace (pipes, &&, redirections, globs work), e.g. `go test ./...` or "+
			"`npm install`. Waits up to waitMs, then returns the exit code and bounded stdout/stderr; a command still running is "+
			"left in the background and its jobId returned (job_wait, job_output, cancel_job). "+fenceNote+"background: true returns the jobId at once; "+
			"sandbox: true confines its writes to the workspace and denies the network unless network: true. The owner's setting may "+
			"sandbox every command (the result's sandbox field says how it ran): pass network: true for commands that download.",
		CommandResult{}, runs), runCommand)
}

func execCommand(_ *juju.Call, in ExecCommandArgs) (*juju.Result, error) {
	req := in.RunOptions.request()
	req.Program, req.Args = in.Program, in.Args
	r, err := juju.Exec(req)
	if err != nil {
		return nil, err
	}
	return commandResult(CommandResult{ExecResult: *r}), nil
}

func runCommand(_ *juju.Call, in RunCommandArgs) (*juju.Result, error) {
	req := in.RunOptions.request()
	req.Command = in.Command
	r, err := juju.ExecShell(req)
	if err != nil {
		return nil, err
	}
	return commandResult(CommandResult{ExecResult: *r}), nil
}

// fenceNote tells the model how a command's output is marked off.
const fenceNote = "Each stream's output lies between the lines <<<stdout WORD>>> and <<<end of stdout WORD>>> (stderr alike), " +
	"WORD random, its control characters escaped: only the lines outside are juju's. "

// maxStreamText bounds the escaped text of one stream in a command's
// result: two of them and juju's lines stay under the 100,000 bytes a
// client takes (SPEC §4). The host keeps 16 KiB of a stream by default,
// so only output thick with escaped control characters reaches it.
const maxStreamText = 45_000

func commandResult(c CommandResult) *juju.Result {
	var b strings.Builder
	writeCommand(&b, c, juju.Fence(), maxStreamText)
	fitCommands([]*CommandResult{&c}, func() any { return c })
	return juju.Text(b.String()).WithStructured(c)
}

// fitCommands cuts the commands of cs in the structured content v makes
// to their first listCommand bytes, and says so in each one's note, when
// that content would pass what a client takes: a 64 KiB command thick
// with control characters is six times that once escaped in JSON, and the
// host would empty the content's large members, the output among them.
func fitCommands(cs []*CommandResult, v func() any) {
	if js, err := json.Marshal(v()); err != nil || len(js) <= abi.MaxStructured {
		return
	}
	for _, c := range cs {
		if len(c.Command) > listCommand {
			c.Command = abi.Cut(c.Command, listCommand)
			cut := fmt.Sprintf("command cut to its first %d bytes: whole, it passed the most a result carries", listCommand)
			if c.Note != "" {
				cut = c.Note + "; " + cut
			}
			c.Note = cut
		}
	}
}

// writeCommand renders one command's result for the model: juju's lines,
// then each stream between fence lines naming fence (writeStream), at
// most budget bytes of it.
func writeCommand(b *strings.Builder, c CommandResult, fence string, budget int) {
	b.WriteString("$ ")
	b.Write(cleanLine(abi.Cut(c.Command, listCommand)))
	b.WriteByte('\n')
	if c.Error != nil {
		fmt.Fprintf(b, "%s: %s\n", c.Error.Code, c.Error.Message)
		return
	}
	switch c.State {
	case abi.JobRunning:
		fmt.Fprintf(b, "running as %s for %s", c.JobID, ms(c.DurationMs))
	case abi.JobExited:
		fmt.Fprintf(b, "exit %d", *c.ExitCode)
		if c.Signal != "" {
			fmt.Fprintf(b, " (%s)", c.Signal)
		}
		fmt.Fprintf(b, " in %s", ms(c.DurationMs))
	default:
		fmt.Fprintf(b, "%s", c.State)
		if c.Signal != "" {
			fmt.Fprintf(b, " (%s)", c.Signal)
		}
		fmt.Fprintf(b, " after %s", ms(c.DurationMs))
	}
	fmt.Fprintf(b, " · job %s · sandbox: %s\n", c.JobID, c.Sandbox)
	if c.Note != "" {
		fmt.Fprintf(b, "note: %s\n", c.Note)
	}
	writeStream(b, "stdout", fence, c.Stdout, c.StdoutBytes, c.StdoutCut, c.JobID, budget)
	writeStream(b, "stderr", fence, c.Stderr, c.StderrBytes, c.StderrCut, c.JobID, budget)
}

// writeStream writes one stream's text between fence lines. When the host
// cut it, the text is its head, juju's marker line and its tail: the head
// and the tail are fenced apart and the marker stands between them, so
// output that only looks like a marker stays inside a fence. The escaped
// text is at most budget bytes; a part cut for that is said after its
// fence.
func writeStream(b *strings.Builder, name, fence, text string, size int64, cut *abi.OutputCut, jobID string, budget int) {
	if text == "" {
		return
	}
	if cut != nil {
		head, tail := cut.From, int64(len(text))-(size-cut.To)
		if head >= 0 && head < tail && tail <= int64(len(text)) && cut.To <= size {
			if marker := strings.Trim(text[head:tail], "\n"); strings.HasPrefix(marker, "[") && !strings.Contains(marker, "\n") {
				writePart(b, name, fence, text[:head], 0, jobID, budget/2)
				b.WriteString(marker + "\n")
				writePart(b, name, fence, text[tail:], cut.To, jobID, budget/2)
				return
			}
		}
	}
	writePart(b, name, fence, text, 0, jobID, budget)
}

// writePart writes a part of a stream that starts at byte from of it,
// fenced, and says what of it the budget left out.
func writePart(b *strings.Builder, name, fence, part string, from int64, jobID string, budget int) {
	if part == "" {
		return
	}
	if used := writeFenced(b, name, fence, part, budget); used < len(part) {
		fmt.Fprintf(b, "[… juju left out bytes %d to %d of %s here: with their control characters escaped they passed the most a result shows; read them with job_output (jobId %q, stream %q, offset %d) …]\n",
			from+int64(used), from+int64(len(part)), name, jobID, name, from+int64(used))
	}
}

// cleanLine is what the model wrote (a command line) as it stands in
// juju's text: its control and format characters escaped as
// juju.LineText escapes them (hidesInLine), line feeds kept.
func cleanLine(s string) []byte {
	out, _ := appendEscaped(nil, s, len(s)*6, hidesInLine)
	return out
}

func ms(n int64) string { return (time.Duration(n) * time.Millisecond).String() }

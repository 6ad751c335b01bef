package exec

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// JobArgs name one job.
type JobArgs struct {
	JobID string `json:"jobId" jsonschema:"required" min:"1" desc:"The job's id, as a command tool or list_jobs returned it."`
}

// JobWaitArgs are the arguments of job_wait.
type JobWaitArgs struct {
	JobID  string `json:"jobId" jsonschema:"required" min:"1" desc:"The job's id."`
	WaitMs int64  `json:"waitMs,omitempty" min:"0" max:"600000" desc:"Wait at most this long. Default and ceiling: the background-after limit (50 s)."`
}

// JobOutputArgs are the arguments of job_output.
type JobOutputArgs struct {
	JobID  string `json:"jobId" jsonschema:"required" min:"1" desc:"The job's id."`
	Stream string `json:"stream,omitempty" enum:"stdout,stderr" default:"stdout" desc:"Which output to read."`
	Offset int64  `json:"offset,omitempty" min:"0" desc:"The first byte to read (a cut result names the offset where the cut starts)."`
	Limit  int64  `json:"limit,omitempty" min:"1" max:"262144" desc:"Read at most this many bytes (default 32768; one result holds at most 90000, and a larger limit is cut there)."`
}

// maxJobOutput is the most output one job_output result shows: its text
// stays under the 100,000 bytes a client takes (SPEC §4).
const maxJobOutput = 90_000

// JobOutput is the structured content of job_output: where the bytes the
// text shows lie in the stream, not the bytes again.
type JobOutput struct {
	JobID  string `json:"jobId" desc:"The job's id."`
	State  string `json:"state" desc:"The job's state now."`
	Stream string `json:"stream" desc:"stdout or stderr."`
	Offset int64  `json:"offset" desc:"The first byte read."`
	Bytes  int64  `json:"bytes" desc:"How many bytes were read; the text shows them after its first line."`
	Next   int64  `json:"next" desc:"The offset after the bytes read: pass it as offset to read on."`
	Size   int64  `json:"size" desc:"The stream's size so far."`
	EOF    bool   `json:"eof" desc:"Nothing more to read yet (a running job may still write)."`
}

// JobList is the structured content of list_jobs.
type JobList struct {
	Jobs []CommandResult `json:"jobs" desc:"Every job juju keeps, newest first, without their output, each command cut to its first 200 bytes (job_status gives it whole in its structured content, unless whole it would pass what a result carries)."`
}

func init() {
	juju.Tool("job_status", execTool("Job status",
		"Reports a job's state (running, exited, killed, timeout), exit code, duration and the head and tail of its output, without waiting.",
		CommandResult{}, abi.Annotations{Idempotent: true}), jobStatus)
	juju.Tool("job_wait", execTool("Wait for a job",
		"Waits up to waitMs for a background job to finish and returns its result, or its state so far if it is still running.",
		CommandResult{}, abi.Annotations{Idempotent: true}), jobWait)
	juju.Tool("job_output", execTool("Read a job's output",
		"Reads a job's stdout or stderr from a byte offset, to see output a result cut, or to follow a running job (pass next as the new offset). "+
			"The text is a line saying which bytes it shows, then the bytes between the lines <<<stdout WORD>>> and <<<end of stdout WORD>>> "+
			"(WORD random), control characters escaped; at most 90000 bytes a call.",
		JobOutput{}, abi.Annotations{Idempotent: true}), jobOutput)
	juju.Tool("cancel_job", execTool("Cancel a job",
		"Stops a running job: its whole process group gets SIGTERM, then SIGKILL a second later. Returns its final state.",
		CommandResult{}, abi.Annotations{Destructive: true, Idempotent: true}), cancelJob)
	juju.Tool("list_jobs", execTool("List jobs",
		"Lists the command jobs of this session, newest first: id, command (its first 200 bytes), state, exit code, duration and output sizes.",
		JobList{}, abi.Annotations{Idempotent: true}), listJobs)
}

func jobOp(req abi.JobRequest) (*juju.Result, error) {
	r, _, err := juju.Job(req)
	if err != nil {
		return nil, err
	}
	return commandResult(CommandResult{ExecResult: *r.Job}), nil
}

func jobStatus(_ *juju.Call, in JobArgs) (*juju.Result, error) {
	return jobOp(abi.JobRequest{Op: abi.JobStatus, JobID: in.JobID})
}

func jobWait(_ *juju.Call, in JobWaitArgs) (*juju.Result, error) {
	return jobOp(abi.JobRequest{Op: abi.JobWait, JobID: in.JobID, WaitMs: in.WaitMs})
}

func cancelJob(_ *juju.Call, in JobArgs) (*juju.Result, error) {
	return jobOp(abi.JobRequest{Op: abi.JobCancel, JobID: in.JobID})
}

func jobOutput(_ *juju.Call, in JobOutputArgs) (*juju.Result, error) {
	limit := min(in.Limit, maxJobOutput) // 0: the host's default, 32768
	r, body, err := juju.Job(abi.JobRequest{Op: abi.JobOutput, JobID: in.JobID, Stream: in.Stream, Offset: in.Offset, Limit: limit})
	if err != nil {
		return nil, err
	}
	size := r.Job.StdoutBytes
	if in.Stream == "stderr" {
		size = r.Job.StderrBytes
	}
	// A page ends before a character its end cuts, and the next starts
	// with it, rather than both showing half of it as U+FFFD. A read cut
	// by its limit ends where the limit fell, often inside a character;
	// one that reached the end of a running job's output may too, since a
	// program writing to a file writes in blocks cut anywhere. Only the
	// end of a job's whole output may end inside a character, as written.
	held := 0
	if n := wholeRunes(body); n < len(body) {
		switch {
		case !r.EOF && n > 0:
			body, r.Next = body[:n], in.Offset+int64(n)
		case r.EOF && r.Job.State == abi.JobRunning:
			held = len(body) - n
			body, r.Next = body[:n], in.Offset+int64(n)
		case r.EOF && size > r.Next:
			// The job wrote the rest and ended after the read.
			body, r.Next, r.EOF = body[:n], in.Offset+int64(n), false
		}
	}
	o := JobOutput{JobID: in.JobID, State: r.Job.State, Stream: in.Stream, Offset: in.Offset, Bytes: int64(len(body)), Next: r.Next, Size: size, EOF: r.EOF}
	label := in.Stream
	if label == "" {
		label = "stdout"
	}
	// The bytes go between fence lines, escaped; escaped controls take
	// more room than the bytes they stand for, so the bytes shown may be
	// fewer than those read, and next says where they stop.
	var fenced strings.Builder
	if len(body) > 0 {
		if used := writeFenced(&fenced, label, juju.Fence(), string(body), maxJobOutput); used < len(body) {
			o.Bytes, o.Next, o.EOF = int64(used), o.Offset+int64(used), false
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s bytes %d–%d of %d (%s)", o.JobID, label, o.Offset, o.Next, o.Size, o.State)
	if !o.EOF {
		fmt.Fprintf(&b, "; more: call job_output with offset %d", o.Next)
		if in.Limit > maxJobOutput {
			fmt.Fprintf(&b, " (a call shows at most %d bytes)", maxJobOutput)
		}
	} else if held > 0 {
		fmt.Fprintf(&b, "; the last %d bytes so far begin a character not yet written whole: call job_output with offset %d once the job writes more", held, o.Next)
	}
	b.WriteString("\n")
	b.WriteString(fenced.String())
	return juju.Text(b.String()).WithStructured(o), nil
}

func listJobs(_ *juju.Call, _ struct{}) (*juju.Result, error) {
	r, _, err := juju.Job(abi.JobRequest{Op: abi.JobList})
	if err != nil {
		return nil, err
	}
	l := JobList{Jobs: make([]CommandResult, 0, len(r.Jobs))}
	var b strings.Builder
	for i := range r.Jobs {
		c := CommandResult{ExecResult: r.Jobs[i]}
		c.Command = abi.Cut(c.Command, listCommand)
		l.Jobs = append(l.Jobs, c)
		status := c.State
		if c.ExitCode != nil {
			status = fmt.Sprintf("exit %d", *c.ExitCode)
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", c.JobID, status, ms(c.DurationMs), juju.LineText(c.Command))
	}
	if len(l.Jobs) == 0 {
		b.WriteString("no jobs\n")
	}
	return juju.Text(b.String()).WithStructured(l), nil
}

// wholeRunes is how many bytes of b come before a UTF-8 sequence its end
// cuts short (len(b) when none is).
func wholeRunes(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// listCommand is the most of a command list_jobs shows: up to 96 jobs (64
// finished, 32 running) of commands up to 64 KiB each, a heredoc that
// writes a file among them, stay under what a client takes, and a job
// started long ago is still listed. A longer one is cut with abi.Cut, at a
// character's start, with an ellipsis.
const listCommand = 200

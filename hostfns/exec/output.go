package exec

import (
	"context"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// headTail reads a log: all of it when it fits in maxOut bytes, else its
// first and last maxOut/2 bytes (moved to UTF-8 boundaries) around a line
// that says what was cut and how to read it. A maxOut of 0 reads nothing
// and gives the size only. It returns the text, the log's size and, when
// it was cut, where. The log of a running job may end inside a character
// its program has written half of (a program writing to a file writes
// in blocks cut anywhere): the text then ends before it, rather than with
// U+FFFD, and job_output reads it whole once it is written.
func headTail(path string, maxOut int64, id, stream string, running bool) (string, int64, *abi.OutputCut) {
	if maxOut == 0 {
		fi, err := os.Stat(path)
		if err != nil {
			return "", 0, nil
		}
		return "", fi.Size(), nil
	}
	f, err := openFile(path, os.O_RDONLY, 0)
	if err != nil {
		return "", 0, nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", 0, nil
	}
	size := fi.Size()
	if size <= maxOut {
		b := make([]byte, size)
		n, _ := io.ReadFull(f, b)
		b = b[:n]
		if running {
			b = trimPartialRune(b)
		}
		return string(b), size, nil
	}
	half := maxOut / 2
	head := make([]byte, half)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	head = trimPartialRune(head)
	tail := make([]byte, half)
	n, _ = f.ReadAt(tail, size-half)
	tail = tail[:n]
	skip := 0
	for skip < len(tail) && skip < utf8.UTFMax && !utf8.RuneStart(tail[skip]) {
		skip++
	}
	tail = tail[skip:]
	if running {
		tail = trimPartialRune(tail)
	}
	from, to := int64(len(head)), size-int64(len(tail))
	marker := fmt.Sprintf("\n[… juju cut bytes %d to %d of %d here; read them with job_output (jobId %q, stream %q, offset %d) …]\n",
		from, to, size, id, stream, from)
	return string(head) + marker + string(tail), size, &abi.OutputCut{From: from, To: to}
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}

// jobOp serves FnJob.
func (m *Manager) jobOp(ctx context.Context, req *abi.JobRequest, _ []byte) (*abi.JobResult, []byte, *abi.Error) {
	owner := principal(ctx)
	if req.Op == abi.JobList {
		m.mu.Lock()
		jobs := append([]*job(nil), m.order...)
		m.mu.Unlock()
		res := &abi.JobResult{Jobs: []abi.ExecResult{}}
		for i := len(jobs) - 1; i >= 0; i-- {
			if jobs[i].owner != owner {
				continue
			}
			res.Jobs = append(res.Jobs, jobs[i].result(0))
		}
		return res, nil, nil
	}
	m.mu.Lock()
	j, ok := m.jobs[req.JobID]
	m.mu.Unlock()
	if !ok || j.owner != owner {
		return nil, nil, abi.Errorf(abi.NotFound, "there is no job %s; list_jobs shows the jobs juju keeps (the oldest finished ones are dropped)", abi.Quote(req.JobID))
	}
	switch req.Op {
	case abi.JobStatus:
	case abi.JobWait:
		if req.WaitMs < 0 {
			return nil, nil, abi.Errorf(abi.InvalidArgument, "waitMs cannot be negative")
		}
		d := m.opts.BackgroundAfter
		if req.WaitMs > 0 {
			d = hostfns.Millis(req.WaitMs, min(d, MaxWait))
		}
		j.await(ctx, m.callWait(ctx, d))
	case abi.JobRelease:
		// A call already cancelled keeps its jobs bound: the plugin runs
		// on a moment after its client cancelled it, and would otherwise
		// release what the cancellation is stopping.
		j.mu.Lock()
		if ctx.Err() == nil {
			j.bound = false
		}
		j.mu.Unlock()
	case abi.JobCancel:
		j.kill(abi.JobKilled)
		j.await(ctx, capWait(ctx, 2*killGrace))
	case abi.JobOutput:
		return m.output(j, req)
	default:
		return nil, nil, abi.Errorf(abi.InvalidArgument, "op %s is not one of status, wait, cancel, output, list, release", abi.Quote(req.Op))
	}
	r := j.result(maxOutput(req.MaxOutput))
	return &abi.JobResult{Job: &r}, nil, nil
}

// output reads one stream of a job's log from an offset.
func (m *Manager) output(j *job, req *abi.JobRequest) (*abi.JobResult, []byte, *abi.Error) {
	path, stream := j.outPath, "stdout"
	switch req.Stream {
	case "", "stdout":
	case "stderr":
		stream = "stderr"
		path = j.errPath
	default:
		return nil, nil, abi.Errorf(abi.InvalidArgument, "stream %s is not stdout or stderr", abi.Quote(req.Stream))
	}
	if req.Offset < 0 || req.Limit < 0 {
		return nil, nil, abi.Errorf(abi.InvalidArgument, "offset and limit cannot be negative")
	}
	limit := int64(DefaultReadLimit)
	if req.Limit > 0 {
		limit = min(req.Limit, MaxReadLimit)
	}
	f, err := openFile(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, m.internal("opening a job log", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, m.internal("reading a job log", err)
	}
	size := fi.Size()
	if req.Offset > size {
		return nil, nil, abi.Errorf(abi.InvalidArgument, "offset %d is past the end of %s (%d bytes so far); pass an offset from 0 to %d, or job_wait for the job to write more", req.Offset, stream, size, size)
	}
	buf := make([]byte, min(limit, size-req.Offset))
	n, err := f.ReadAt(buf, req.Offset)
	if err != nil && err != io.EOF {
		return nil, nil, m.internal("reading a job log", err)
	}
	buf = buf[:n]
	r := j.result(0)
	next := req.Offset + int64(n)
	return &abi.JobResult{Job: &r, Next: next, EOF: next >= size}, buf, nil
}

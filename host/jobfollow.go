package host

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/audit"
	"github.com/jujutools/juju/sdk/abi"
)

// A command the owner approved may run on as a background job, and the
// client follows it with job_status, job_output and job_wait, or stops it
// with cancel_job: each a call of tier X, which would ask the owner again
// at every poll. Those calls run nothing new and reach nothing: they read
// or end what the owner let this client start. So a call of one of them
// naming a job this same client (principal and declared name) started in
// this process runs without asking (followsOwnJob). Anything else still
// asks: a job another client started (the owner's local clients share
// their jobs), list_jobs (it lists every job of the principal), and every
// command.

// followTools are the job tools that follow or stop one job, named by its
// jobId.
var followTools = map[string]bool{"job_status": true, "job_output": true, "job_wait": true, "cancel_job": true}

// startsNothing reports whether a call of t only reads or stops jobs
// (the followTools and list_jobs): it runs no program and reaches
// nothing, so it needs no started record (Host.recordStart) to run. A
// full disk may be a job's doing, and cancel_job must still stop it.
func startsNothing(t *Tool, c hostfns.Caller) bool {
	return t.Plugin.Source == SourceCore && c.Plugin == coreExecPlugin && (followTools[c.Tool] || c.Tool == "list_jobs")
}

// maxStarted bounds the jobs remembered: the oldest are forgotten first,
// and a call following one of them asks the owner, as before.
const maxStarted = 4096

// startedJobs remembers which client started each job of this process.
type startedJobs struct {
	mu    sync.Mutex
	by    map[string]jobStarter
	order []string // job ids, oldest first
}

type jobStarter struct{ principal, client string }

func (s *startedJobs) note(id string, c hostfns.Caller) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == nil {
		s.by = map[string]jobStarter{}
	}
	if _, ok := s.by[id]; ok {
		return
	}
	if len(s.order) >= maxStarted {
		delete(s.by, s.order[0])
		s.order = s.order[1:]
	}
	s.by[id] = jobStarter{principal: c.Principal, client: c.Client}
	s.order = append(s.order, id)
}

func (s *startedJobs) startedBy(id string, c hostfns.Caller) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.by[id]
	return ok && st.principal == c.Principal && st.client == c.Client
}

// noteJobStarts wraps the host functions that start commands so that the
// host learns which client started each job (the job id in their answer).
func (h *Host) noteJobStarts(fns []hostfns.Func) []hostfns.Func {
	for i, f := range fns {
		if f.Name != abi.FnExec && f.Name != abi.FnExecShell {
			continue
		}
		handle := f.Handle
		fns[i].Handle = func(ctx context.Context, header, body []byte) ([]byte, []byte) {
			resp, out := handle(ctx, header, body)
			var r struct {
				JobID string `json:"jobId"`
			}
			if c, ok := hostfns.CallerFrom(ctx); ok && json.Unmarshal(resp, &r) == nil && r.JobID != "" {
				h.started.note(r.JobID, c)
			}
			return resp, out
		}
	}
	return fns
}

// followsOwnJob reports whether a call of t follows or stops a job the
// same client started (see above): the call then needs no new approval,
// and the audit records how it ran (audit.ViaJob, the job's id).
func (h *Host) followsOwnJob(t *Tool, c hostfns.Caller, args []byte) (*audit.Approval, bool) {
	if t.Plugin.Source != SourceCore || c.Plugin != coreExecPlugin || !followTools[c.Tool] {
		return nil, false
	}
	// The plugin reads its arguments with exact keys, the last of a
	// repeated key winning: so does a map.
	var m map[string]json.RawMessage
	var id string
	if json.Unmarshal(args, &m) != nil || json.Unmarshal(m["jobId"], &id) != nil || id == "" {
		return nil, false
	}
	if !h.started.startedBy(id, c) {
		return nil, false
	}
	return &audit.Approval{Via: audit.ViaJob, Decision: "followed", ID: id}, true
}

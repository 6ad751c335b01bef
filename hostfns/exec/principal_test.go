package exec

import (
	"context"
	"encoding/json"
	"math"
	osexec "os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// as calls h as principal p would (the host puts the caller in the
// context of every plugin call).
func as[Res any](t *testing.T, p string, h func(context.Context, []byte, []byte) ([]byte, []byte), req any) (*Res, *abi.Error) {
	t.Helper()
	b, _ := json.Marshal(req)
	ctx := hostfns.WithCaller(context.Background(), hostfns.Caller{Plugin: "core-exec", Principal: p})
	rh, _ := h(ctx, b, nil)
	var st abi.Status
	json.Unmarshal(rh, &st)
	if st.Error != nil {
		return nil, st.Error
	}
	res := new(Res)
	if err := json.Unmarshal(rh, res); err != nil {
		t.Fatal(err)
	}
	return res, nil
}

// One juju serve serves the owner's local clients and OAuth clients
// alike: a job belongs to the principal that started it, and another
// cannot list, read, wait for or cancel it, even knowing its id.
func TestJobsStayWithTheirPrincipal(t *testing.T) {
	m, _ := newManager(t, Options{})
	fns := m.Funcs()
	shell, job := fns[1].Handle, fns[2].Handle

	local, e := as[abi.ExecResult](t, "", shell, abi.ExecRequest{Command: "echo local-secret; sleep 30", Background: true})
	if e != nil {
		t.Fatal(e)
	}
	remote, e := as[abi.ExecResult](t, "oauth:client-a", shell, abi.ExecRequest{Command: "echo remote; sleep 30", Background: true})
	if e != nil {
		t.Fatal(e)
	}

	ids := func(p string) []string {
		r, e := as[abi.JobResult](t, p, job, abi.JobRequest{Op: abi.JobList})
		if e != nil {
			t.Fatal(e)
		}
		var out []string
		for _, j := range r.Jobs {
			out = append(out, j.JobID)
		}
		return out
	}
	for p, want := range map[string]string{"": local.JobID, "oauth:client-a": remote.JobID} {
		if got := ids(p); len(got) != 1 || got[0] != want {
			t.Errorf("principal %q lists %v, want [%s]", p, got, want)
		}
	}
	if got := ids("oauth:client-b"); len(got) != 0 {
		t.Errorf("a third principal lists %v", got)
	}

	for _, op := range []string{abi.JobStatus, abi.JobOutput, abi.JobWait, abi.JobCancel} {
		for _, c := range []struct{ p, id string }{{"oauth:client-a", local.JobID}, {"", remote.JobID}, {"oauth:client-b", remote.JobID}} {
			_, e := as[abi.JobResult](t, c.p, job, abi.JobRequest{Op: op, JobID: c.id, WaitMs: 10})
			if e == nil || e.Code != abi.NotFound {
				t.Errorf("%s of %s by %q: %v, want NOT_FOUND", op, c.id, c.p, e)
			}
		}
	}
	// Nothing the others tried touched the jobs.
	for p, id := range map[string]string{"": local.JobID, "oauth:client-a": remote.JobID} {
		r, e := as[abi.JobResult](t, p, job, abi.JobRequest{Op: abi.JobStatus, JobID: id})
		if e != nil || r.Job.State != abi.JobRunning {
			t.Errorf("%s after the others' attempts: %+v %v", id, r, e)
		}
		if r, e = as[abi.JobResult](t, p, job, abi.JobRequest{Op: abi.JobCancel, JobID: id}); e != nil || r.Job.State != abi.JobKilled {
			t.Errorf("cancel of %s by its own principal: %+v %v", id, r, e)
		}
	}
}

// Counts of milliseconds large enough to overflow a time.Duration are the
// longest allowed, not a negative duration that ends a wait at once.
func TestHugeMillisAreTheLongest(t *testing.T) {
	m, _ := newManager(t, Options{BackgroundAfter: 300 * time.Millisecond})
	fns := m.Funcs()
	shell := fns[1].Handle
	begin := time.Now()
	r, e := as[abi.ExecResult](t, "", shell, abi.ExecRequest{Command: "sleep 0.1; echo done", TimeoutMs: math.MaxInt64, WaitMs: math.MaxInt64})
	if e != nil {
		t.Fatal(e)
	}
	if r.State != abi.JobExited || r.Stdout != "done\n" {
		t.Errorf("huge timeoutMs and waitMs: %+v after %v", r, time.Since(begin))
	}
	for _, n := range []int64{math.MaxInt64, math.MaxInt64 / 1000, math.MaxInt64/int64(time.Millisecond) + 1} {
		if d := hostfns.Millis(n, time.Minute); d != time.Minute {
			t.Errorf("Millis(%d) = %v", n, d)
		}
	}
	if d := hostfns.Millis(1500, time.Minute); d != 1500*time.Millisecond {
		t.Errorf("Millis(1500) = %v", d)
	}
}

// Blocks allocated past a log's size (fallocate --keep-size) count
// against the output cap: the size alone would not show them.
func TestOutputCapCountsAllocatedBlocks(t *testing.T) {
	if _, err := osexec.LookPath("fallocate"); err != nil {
		t.Skip("no fallocate here")
	}
	m, _ := newManager(t, Options{MaxLog: 1 << 20})
	shell := m.Funcs()[1].Handle
	r, e := as[abi.ExecResult](t, "", shell, abi.ExecRequest{Command: "fallocate -n -l 64MiB /proc/self/fd/1 && sleep 5", WaitMs: 20_000})
	if e != nil {
		t.Fatal(e)
	}
	if r.State != abi.JobKilled || !strings.Contains(r.Note, "output passed 1 MiB") {
		t.Fatalf("64 MiB allocated past the size: %+v", r)
	}
}

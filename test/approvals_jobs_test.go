package test

import (
	"strings"
	"testing"
	"time"
)

// In edit mode a command waits for the owner; once approved it may run on
// as a background job. The client that started it follows it — status,
// output, wait — and stops it without asking the owner at each poll. A
// job another client started, list_jobs (every job of the principal) and
// a job id this client never got still ask, as every command does; the
// audit says how each followed call ran. A poll changes no file, so it
// spends none of the owner's other approvals.
func TestFollowingAnApprovedJobAsksNothing(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	home := gateHome(t, 300*time.Millisecond)
	srv := startServeHome(t, home, root, "--mode", "edit", "--sandbox", "off")
	a := srv.connect(t, "follow-a", "2025-11-25")
	b := srv.connect(t, "follow-b", "2025-11-25")

	args := map[string]any{"command": "echo started-output; sleep 30", "background": true}
	id := pendingIn(t, a.fail("run_command", args, "APPROVAL_PENDING"))
	juju(t, home, root, "approvals", "approve", id)
	job, _ := structured(t, a.call("run_command", args))["jobId"].(string)
	if job == "" {
		t.Fatal("the approved background command gave no job id")
	}

	if st := structured(t, a.call("job_status", map[string]any{"jobId": job})); st["state"] != "running" {
		t.Fatalf("job_status of its own approved job: %v", st)
	}
	a.ok("job_wait", map[string]any{"jobId": job, "waitMs": 50})
	deadline := time.Now().Add(15 * time.Second)
	for out := ""; !strings.Contains(out, "started-output"); out = a.ok("job_output", map[string]any{"jobId": job}) {
		if time.Now().After(deadline) {
			t.Fatalf("job_output never showed the job's output: %s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// Polling a job changes no file: the owner's approval of another
	// command, given meanwhile, still runs it.
	other := map[string]any{"command": "touch other-ran.txt"}
	id2 := pendingIn(t, a.fail("run_command", other, "APPROVAL_PENDING"))
	juju(t, home, root, "approvals", "approve", id2)
	a.ok("job_status", map[string]any{"jobId": job})
	a.ok("run_command", other)

	b.fail("job_status", map[string]any{"jobId": job}, "APPROVAL_PENDING")
	b.fail("cancel_job", map[string]any{"jobId": job}, "APPROVAL_PENDING")
	a.fail("list_jobs", map[string]any{}, "APPROVAL_PENDING")
	a.fail("job_status", map[string]any{"jobId": "job-999"}, "APPROVAL_PENDING")

	if st := structured(t, a.call("cancel_job", map[string]any{"jobId": job})); st["state"] != "killed" {
		t.Fatalf("cancel_job of its own approved job: %v", st)
	}
	audit := juju(t, home, root, "audit")
	if !strings.Contains(audit, "followed (job "+job+")") {
		t.Errorf("juju audit does not say the job tools followed %s:\n%s", job, audit)
	}
}

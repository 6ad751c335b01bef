package test

import (
	"strings"
	"testing"
)

// One juju serve holds the jobs of every client it serves. A job belongs
// to the principal that started it: an OAuth client neither lists, reads,
// waits for nor cancels the owner's local jobs, even knowing their ids,
// and the owner's local clients do not see the OAuth client's.
func TestServeJobsStayWithTheirPrincipal(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted", "--sandbox", "off")
	local := srv.connect(t, "jobs-local", "2025-11-25")
	g := srv.oauthGrant(t, "jobs-oauth", 1)
	remote := srv.connectWith(t, "jobs-oauth-session", "2025-11-25", map[string]string{"Authorization": "Bearer " + g.token})

	mine := structured(t, local.call("run_command", map[string]any{"command": "echo local-only-output; sleep 30", "background": true}))
	theirs := structured(t, remote.call("run_command", map[string]any{"command": "echo remote-output; sleep 30", "background": true}))
	localID, _ := mine["jobId"].(string)
	remoteID, _ := theirs["jobId"].(string)
	if localID == "" || remoteID == "" || localID == remoteID {
		t.Fatalf("jobs: %v / %v", mine, theirs)
	}

	listed := func(s *session) []string {
		var ids []string
		for _, j := range structured(t, s.call("list_jobs", map[string]any{}))["jobs"].([]any) {
			ids = append(ids, j.(map[string]any)["jobId"].(string))
		}
		return ids
	}
	if ids := listed(remote); len(ids) != 1 || ids[0] != remoteID {
		t.Errorf("the OAuth client lists %v, want [%s]", ids, remoteID)
	}
	if ids := listed(local); len(ids) != 1 || ids[0] != localID {
		t.Errorf("the local client lists %v, want [%s]", ids, localID)
	}
	for _, tool := range []string{"job_status", "job_output", "job_wait", "cancel_job"} {
		text := remote.fail(tool, map[string]any{"jobId": localID}, "NOT_FOUND")
		if strings.Contains(text, "local-only-output") {
			t.Errorf("%s of the owner's job by the OAuth client: %s", tool, text)
		}
		local.fail(tool, map[string]any{"jobId": remoteID}, "NOT_FOUND")
	}
	if st := structured(t, local.call("job_status", map[string]any{"jobId": localID})); st["state"] != "running" {
		t.Errorf("the owner's job after the OAuth client's attempts: %v", st)
	}
	for s, id := range map[*session]string{local: localID, remote: remoteID} {
		if st := structured(t, s.call("cancel_job", map[string]any{"jobId": id})); st["state"] != "killed" {
			t.Errorf("cancel of %s by its own client: %v", id, st)
		}
	}
}

// `juju clients revoke` ends what the revoked client left running. Its
// background jobs belong to it alone, so once it was revoked nobody could
// list or cancel them — not the owner's own clients, which get NOT_FOUND —
// and a job it started just before (a `sleep 20 && …`; its timeout
// could be two hours) ran to its end unseen. Now they are killed with its sessions.
func TestServeRevokedClientsJobsEnd(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted", "--sandbox", "off")
	g := srv.oauthGrant(t, "jobs-revoked", 1)
	remote := srv.connectWith(t, "jobs-revoked-session", "2025-11-25", map[string]string{"Authorization": "Bearer " + g.token})
	local := srv.connect(t, "jobs-owner", "2025-11-25")
	mine := structured(t, local.call("run_command", map[string]any{"command": "sleep 25 && touch owner-ran.txt", "background": true}))
	job := structured(t, remote.call("run_command", map[string]any{"command": "sleep 20 && touch revoked-ran.txt", "background": true}))
	if job["jobId"] == nil || mine["jobId"] == nil {
		t.Fatalf("run_command: %v / %v", job, mine)
	}
	juju(t, srv.home, root, "clients", "revoke", g.client)
	// The owner's own job runs on, past the time the revoked client's
	// would have ended.
	if st := structured(t, local.call("job_wait", map[string]any{"jobId": mine["jobId"], "waitMs": 30000})); st["state"] != "exited" {
		t.Fatalf("the owner's job: %v", st)
	}
	if _, err := statIn(root, "owner-ran.txt"); err != nil {
		t.Fatalf("the owner's job did not finish: %v", err)
	}
	mustNotExist(t, root, "revoked-ran.txt")
}

// A client that is not revoked keeps its background jobs across the
// token rechecks: juju knows an OAuth client's jobs by the principal
// "oauth:<client id>", and asking the OAuth store whether that, prefix
// and all, may still obtain access said no for every client, so within
// ten seconds every consented client's jobs were killed.
func TestServeLiveClientsJobsRunOn(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted", "--sandbox", "off")
	g := srv.oauthGrant(t, "jobs-live", 1)
	remote := srv.connectWith(t, "jobs-live-session", "2025-11-25", map[string]string{"Authorization": "Bearer " + g.token})
	// Past the ten seconds between two rechecks.
	job := structured(t, remote.call("run_command", map[string]any{"command": "sleep 12 && touch live-ran.txt", "background": true}))
	if job["jobId"] == nil {
		t.Fatalf("run_command: %v", job)
	}
	if st := structured(t, remote.call("job_wait", map[string]any{"jobId": job["jobId"], "waitMs": 30000})); st["state"] != "exited" {
		t.Fatalf("the live client's job: %v", st)
	}
	if _, err := statIn(root, "live-ran.txt"); err != nil {
		t.Fatalf("the live client's job did not finish: %v", err)
	}
}

// The most commands running at once (32) is each principal's: an OAuth
// client that fills its own share with background jobs does not keep the
// owner's local clients from running a command. Before, the bound was
// juju's whole: the remote client's 32 sleeps (background jobs have no
// timeout) made every local command TOO_LARGE, telling the owner's client
// to wait for or cancel jobs it could neither list nor cancel.
func TestServeRunningJobsBoundIsEachPrincipals(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted", "--sandbox", "off")
	local := srv.connect(t, "share-local", "2025-11-25")
	g := srv.oauthGrant(t, "share-oauth", 1)
	remote := srv.connectWith(t, "share-oauth-session", "2025-11-25", map[string]string{"Authorization": "Bearer " + g.token})
	for range 32 { // MaxRunning
		if m := structured(t, remote.call("run_command", map[string]any{"command": "sleep 120", "background": true})); m["state"] != "running" {
			t.Fatalf("a background sleep of the OAuth client: %v", m)
		}
	}
	text := remote.fail("run_command", map[string]any{"command": "echo one-too-many", "background": true}, "TOO_LARGE")
	if !strings.Contains(text, "32 of your jobs are already running") {
		t.Errorf("the OAuth client's 33rd command: %s", text)
	}
	if m := structured(t, local.call("run_command", map[string]any{"command": "echo local-ran"})); m["state"] != "exited" || m["stdout"] != "local-ran\n" {
		t.Errorf("the owner's command while the OAuth client has 32 jobs running: %v", m)
	}
}

// The finished jobs juju keeps (64, their logs 1 GiB together) are
// counted per principal too: an OAuth client running many commands drops
// only its own oldest results, never the owner's job it cannot see, whose
// output the owner's client has yet to read. Before, 64 quick commands of
// the remote client made the owner's finished job NOT_FOUND.
func TestServeFinishedJobsKeptPerPrincipal(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted", "--sandbox", "off")
	local := srv.connect(t, "kept-local", "2025-11-25")
	g := srv.oauthGrant(t, "kept-oauth", 1)
	remote := srv.connectWith(t, "kept-oauth-session", "2025-11-25", map[string]string{"Authorization": "Bearer " + g.token})
	mine, _ := structured(t, local.call("run_command", map[string]any{"command": "echo owner-result"}))["jobId"].(string)
	if mine == "" {
		t.Fatal("the owner's command gave no job id")
	}
	var first string
	for i := range 65 { // DefaultMaxJobs + 1
		id, _ := structured(t, remote.call("exec_command", map[string]any{"program": "true"}))["jobId"].(string)
		if i == 0 {
			first = id
		}
	}
	if out := local.ok("job_output", map[string]any{"jobId": mine}); !strings.Contains(out, "owner-result") {
		t.Errorf("the owner's finished job after the OAuth client's 65 commands: %s", out)
	}
	// The remote client's own oldest result is the one dropped.
	remote.fail("job_status", map[string]any{"jobId": first}, "NOT_FOUND")
}

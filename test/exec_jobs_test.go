//go:build unix

package test

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// A command asked to run in the background (a dev server, a watcher)
// has no timeout unless it is given one, and says so: it runs until it
// ends, cancel_job stops it, or juju exits. A command that only outlasted
// its wait, and each command of run_commands, keeps the default timeout.
func TestBackgroundJobHasNoTimeout(t *testing.T) {
	marker := strconv.Itoa(7000 + int(time.Now().UnixNano()%1000))
	s := startExec(t, workspace(t, nil))
	bg := structured(t, s.call("run_command", map[string]any{"command": "sleep " + marker, "background": true}))
	waited := structured(t, s.call("run_command", map[string]any{"command": "sleep " + marker, "waitMs": 50}))
	bounded := structured(t, s.call("run_command", map[string]any{"command": "sleep " + marker, "background": true, "timeoutMs": 600000}))
	several := structured(t, s.call("run_commands", map[string]any{"commands": []any{"sleep " + marker}, "waitMs": 50}))["results"].([]any)[0].(map[string]any)
	for _, m := range []map[string]any{bg, waited, bounded, several} {
		if m["state"] != "running" {
			t.Fatalf("not running: %v", m)
		}
	}
	if note, _ := bg["note"].(string); !strings.Contains(note, "no timeout: it runs until it ends, cancel_job stops it, or juju exits") {
		t.Errorf("the background job's note: %q", note)
	}
	st := s.call("job_status", map[string]any{"jobId": bg["jobId"]})
	if !strings.Contains(text(st), "note: no timeout") {
		t.Errorf("job_status of the background job:\n%s", text(st))
	}
	for _, m := range []map[string]any{waited, bounded, several} {
		if note, _ := m["note"].(string); strings.Contains(note, "no timeout") {
			t.Errorf("%s has a timeout, yet its note says %q", m["jobId"], note)
		}
	}
	for _, m := range []map[string]any{bg, waited, bounded, several} {
		if got := structured(t, s.call("cancel_job", map[string]any{"jobId": m["jobId"]})); got["state"] != "killed" {
			t.Errorf("cancel: %v", got)
		}
	}
}

// A command of run_commands that never started (juju's limit of jobs
// running at once reached) reads not_run with the reason, not killed: it
// has no job, and nothing of it ran.
func TestRunCommandsNotStartedIsNotRun(t *testing.T) {
	marker := strconv.Itoa(7000 + int(time.Now().UnixNano()%1000))
	s := startExec(t, workspace(t, nil))
	var ids []string
	t.Cleanup(func() {
		for _, id := range ids {
			s.call("cancel_job", map[string]any{"jobId": id})
		}
	})
	for range 31 { // MaxRunning is 32
		m := structured(t, s.call("run_command", map[string]any{"command": "sleep " + marker, "background": true}))
		ids = append(ids, m["jobId"].(string))
	}
	res := s.call("run_commands", map[string]any{"commands": []any{"sleep 3; echo ran", "echo never"}, "waitMs": 20000})
	results := structured(t, res)["results"].([]any)
	ran, never := results[0].(map[string]any), results[1].(map[string]any)
	if ran["state"] != "exited" || ran["stdout"] != "ran\n" {
		t.Errorf("the first command: %v", ran)
	}
	errm, _ := never["error"].(map[string]any)
	if never["state"] != "not_run" || errm["code"] != "TOO_LARGE" || never["jobId"] != "" {
		t.Errorf("the command that did not start: %v", never)
	}
	if !strings.Contains(text(res), "$ echo never\nTOO_LARGE: 32 jobs are already running") {
		t.Errorf("text:\n%s", text(res))
	}
}

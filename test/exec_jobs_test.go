//go:build unix

package test

import (
	"io"
	"os"
	"path/filepath"
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
	if !strings.Contains(text(res), "$ echo never\nTOO_LARGE: 32 of your jobs are already running") {
		t.Errorf("text:\n%s", text(res))
	}
}

// list_jobs lists every job juju keeps, each command cut to its first 200
// bytes: a few long commands (a heredoc writing a file) made the list pass
// what a client takes, juju cut it after the first of them, and the
// model lost the ids of every job before (a dev server's among them),
// with no argument to ask for less.
func TestListJobsShowsEveryJobOfLongCommands(t *testing.T) {
	marker := strconv.Itoa(7000 + int(time.Now().UnixNano()%1000))
	s := startExec(t, workspace(t, nil))
	server := structured(t, s.call("run_command", map[string]any{"command": "sleep " + marker, "background": true}))
	t.Cleanup(func() { s.call("cancel_job", map[string]any{"jobId": server["jobId"]}) })
	long := "cat > /dev/null <<'EOF'\n" + strings.Repeat("é", 30000) + "\nEOF"
	for range 3 {
		s.ok("run_command", map[string]any{"command": long})
	}
	res := s.call("list_jobs", map[string]any{})
	if strings.Contains(text(res), "juju cut this result") || !strings.Contains(text(res), server["jobId"].(string)+"\trunning\t") {
		t.Fatalf("list_jobs (%d bytes) lost the first job:\n%.500s", len(text(res)), text(res))
	}
	jobs := structured(t, res)["jobs"].([]any)
	if len(jobs) != 4 {
		t.Fatalf("%d jobs listed, want 4", len(jobs))
	}
	c := jobs[0].(map[string]any)["command"].(string)
	if !strings.HasPrefix(long, strings.TrimSuffix(c, "…")) || !strings.HasSuffix(c, "é…") || len(c) > 200+len("…") {
		t.Errorf("a long command is listed as %q", c)
	}
	if st := structured(t, s.call("job_status", map[string]any{"jobId": jobs[0].(map[string]any)["jobId"]})); st["command"] != long {
		t.Errorf("job_status does not show the command whole: %.100v", st["command"])
	}
}

// A run_commands call its client cancels (the user stopped it) stops its
// commands, as a cancelled run_command stops its own: they ran on as
// background jobs whose ids the client was never told. One that answers
// leaves those still running to the caller.
func TestRunCommandsCancelledStopsItsCommands(t *testing.T) {
	marker := strconv.Itoa(7000 + int(time.Now().UnixNano()%1000))
	root := workspace(t, map[string]string{"a.txt": "x\n"})
	r := startRawExec(t, root)
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"run_commands","arguments":{"commands":["touch s1; sleep `+marker+`","touch s2; sleep `+marker+`"],"waitMs":30000}}}`+"\n")
	waitFor(t, "the commands to start", func() bool {
		_, e1 := os.Stat(filepath.Join(root, "s1"))
		_, e2 := os.Stat(filepath.Join(root, "s2"))
		return e1 == nil && e2 == nil && len(sleepers(marker)) == 2
	})
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`+"\n")
	for deadline := time.Now().Add(30 * time.Second); len(sleepers(marker)) > 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the cancelled call's commands still run: %v", sleepers(marker))
		}
	}

	m := r.send(t, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"run_commands","arguments":{"commands":["sleep `+marker+`"],"waitMs":50}}}`)
	if !strings.Contains(string(mustJSON(m)), `"state":"running"`) {
		t.Fatalf("run_commands: %s", mustJSON(m))
	}
	time.Sleep(time.Second)
	if len(sleepers(marker)) != 1 {
		t.Errorf("the command of a call that answered stopped with it")
	}
	r.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"cancel_job","arguments":{"jobId":"job-3"}}}`)
}

// A command's result echoes its first 200 bytes, not the whole command: a
// 64 KiB command thick with control characters escaped to some 384 KB,
// the host cut the text after the command line and emptied the
// structured content, and the model read neither the exit code nor the
// output. The structured command is cut too when whole it would pass what
// a client takes, and its note says so.
func TestLongCommandResultKeepsItsOutput(t *testing.T) {
	s := startExec(t, workspace(t, nil))
	command := "echo marker-out; : '" + strings.Repeat("\x01", 65000) + "'"
	run := s.call("run_command", map[string]any{"command": command})
	id := structured(t, run)["jobId"]
	for _, tool := range []string{"run_command", "job_status", "job_wait"} {
		res := run
		if tool != "run_command" {
			res = s.call(tool, map[string]any{"jobId": id})
		}
		if res.IsError || strings.Contains(text(res), "juju cut this result") || !strings.Contains(text(res), "exit 0") || !strings.Contains(text(res), "marker-out") || len(text(res)) > 10000 {
			t.Fatalf("%s: %d bytes of text:\n%.600s", tool, len(text(res)), text(res))
		}
		m := structured(t, res)
		if m["stdout"] != "marker-out\n" || m["jujuCut"] != nil {
			t.Errorf("%s: structured content lost the output: %.300v", tool, m)
		}
		if c, _ := m["command"].(string); !strings.HasPrefix(command, strings.TrimSuffix(c, "…")) || len(c) > 210 {
			t.Errorf("%s: structured command of %d bytes", tool, len(c))
		}
		if note, _ := m["note"].(string); !strings.Contains(note, "command cut to its first 200 bytes") {
			t.Errorf("%s: note %q does not say the command was cut", tool, note)
		}
	}
	// A short command stays whole in the text and the structured content.
	if got := s.ok("run_command", map[string]any{"command": "echo short"}); !strings.HasPrefix(got, "$ echo short\n") {
		t.Errorf("short command:\n%s", got)
	}
}

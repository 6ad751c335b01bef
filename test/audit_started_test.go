package test

import (
	"io"
	"strings"
	"testing"
	"time"
)

// A call that runs programs is on record before it runs: juju killed
// while the command runs leaves its record (outcome "started"), and a
// call that ends shows once, with its outcome.
func TestAuditRecordsACallBeforeItRuns(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	r := startRawExec(t, root)
	got := r.send(t, `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"echo done"}}}`)
	if got["result"] == nil {
		t.Fatalf("run_command: %s", mustJSON(got))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"touch EARLY; sleep 30; touch LATE"}}}`+"\n")
	for deadline := time.Now().Add(10 * time.Second); !fileExists(root, "EARLY"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the command never started")
		}
	}
	r.cmd.Process.Kill()
	r.cmd.Wait()

	var echo, sleeper []auditEntry
	for _, e := range auditJSON(t, r.home, root) {
		switch {
		case strings.Contains(e.Args, "echo done"):
			echo = append(echo, e)
		case strings.Contains(e.Args, "EARLY"):
			sleeper = append(sleeper, e)
		}
	}
	if len(echo) != 1 || echo[0].Outcome != "ok" {
		t.Errorf("a call that ended: %+v, want one record, ok", echo)
	}
	if len(sleeper) != 1 || sleeper[0].Outcome != "started" || sleeper[0].Tool != "run_command" {
		t.Errorf("a call juju was killed in: %+v, want one record, started", sleeper)
	}
}

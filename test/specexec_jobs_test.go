//go:build unix

package test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// startBackgroundAfter starts juju with [exec] backgroundAfterMs set to ms.
func startBackgroundAfter(t *testing.T, ms int) *session {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[exec]\nbackgroundAfterMs = "+strconv.Itoa(ms)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return startExec(t, workspace(t, nil), "--config", cfg)
}

// The owner's [exec] backgroundAfterMs is when a command still running
// becomes a background job (SPEC §4: a client gives up on a call after
// about a minute), for run_commands as for run_command: the limit counts
// from the call's start, not once per command, so eight commands that
// outlast it do not keep the call eight times as long, and a waitMs past
// the limit is cut to it.
func TestSpecExecBackgroundAfterBoundsRunCommands(t *testing.T) {
	const limit = 1000 // ms
	marker := strconv.Itoa(8000 + int(time.Now().UnixNano()%1000))
	s := startBackgroundAfter(t, limit)
	t.Cleanup(func() {
		if res, err := s.callErr("list_jobs", nil); err == nil {
			for _, j := range structured(t, res)["jobs"].([]any) {
				s.call("cancel_job", map[string]any{"jobId": j.(map[string]any)["jobId"]})
			}
		}
	})

	one := structured(t, s.call("run_command", map[string]any{"command": "sleep " + marker, "waitMs": 600000}))
	if one["state"] != "running" {
		t.Fatalf("run_command past backgroundAfterMs: %v", one)
	}

	cmds := make([]any, 8)
	for i := range cmds {
		cmds[i] = "sleep " + marker
	}
	for _, wait := range []any{nil, 600000} {
		args := map[string]any{"commands": cmds}
		if wait != nil {
			args["waitMs"] = wait
		}
		m := structured(t, s.call("run_commands", args))
		for i, r := range m["results"].([]any) {
			if st := r.(map[string]any)["state"]; st != "running" {
				t.Errorf("waitMs %v: command %d is %v, not running", wait, i, st)
			}
		}
		// Once the limit, with room for a loaded machine; eight times it
		// is what waiting the limit for each command in turn takes.
		if wall := m["wallMs"].(float64); wall >= 5*limit {
			t.Errorf("waitMs %v: run_commands took %v ms with backgroundAfterMs = %d: the limit counts once per command", wait, wall, limit)
		}
	}
}

// slowOwner approves every question after a while, as an owner reading it
// in the client does.
type slowOwner struct{ after time.Duration }

func (o slowOwner) Elicit(ctx context.Context, _ mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	select {
	case <-time.After(o.after):
	case <-ctx.Done():
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"approve": true}}}, nil
}

// The client's clock runs from its call, the owner's approval included:
// a command approved in the client (edit mode, asked with a server
// request) is handed back as a job once backgroundAfterMs has passed
// since the call came in, not that long after the owner answered. A
// command still gets a tenth of the limit, so a quick one approved late
// answers with its result.
func TestSpecExecBackgroundAfterCountsTheApproval(t *testing.T) {
	const limit = 4000 // ms
	marker := strconv.Itoa(8000 + int(time.Now().UnixNano()%1000))
	home := t.TempDir()
	writeConfig(t, home, "[exec]\nbackgroundAfterMs = "+strconv.Itoa(limit)+"\n")
	s := startGateVersion(t, home, workspace(t, nil), "edit", "slow-owner", mcp.LATEST_LEGACY_PROTOCOL_VERSION, slowOwner{after: limit * time.Millisecond})

	m := structured(t, s.call("run_command", map[string]any{"command": "sleep " + marker}))
	t.Cleanup(func() { s.call("cancel_job", map[string]any{"jobId": m["jobId"]}) })
	if m["state"] != "running" {
		t.Fatalf("run_command: %v", m)
	}
	// The approval took the whole limit: the command ran about a tenth of
	// it, with room for a loaded machine, never the whole limit again.
	if ran := m["durationMs"].(float64); ran >= limit*3/4 {
		t.Errorf("the command ran %v ms before the call answered, after the owner took the whole backgroundAfterMs (%d) to approve it", ran, limit)
	}
	quick := structured(t, s.call("run_command", map[string]any{"command": "echo quick"}))
	if quick["state"] != "exited" || quick["stdout"] != "quick\n" {
		t.Errorf("a quick command approved late: %v", quick)
	}
}

// run_commands' structured content keeps one result per command, each
// with its exit code, however much the commands print (SPEC §4: the
// structured content carries the data's shape): eight commands with long
// stdout and stderr have their streams left out of it, the text showing
// them, rather than the whole list emptied.
func TestSpecExecRunCommandsStructuredKeepsEveryResult(t *testing.T) {
	s := startExec(t, workspace(t, nil))
	cmds := make([]any, 8)
	for i := range cmds {
		cmds[i] = "seq 1 300000; seq 1 300000 >&2; exit " + strconv.Itoa(i)
	}
	res := s.call("run_commands", map[string]any{"commands": cmds})
	m := structured(t, res)
	results, _ := m["results"].([]any)
	if len(results) != len(cmds) {
		t.Fatalf("%d results for %d commands: %.300v", len(results), len(cmds), m)
	}
	for i, r := range results {
		r := r.(map[string]any)
		if r["exitCode"] != float64(i) || r["stdoutBytes"].(float64) < 1e6 || r["stderrBytes"].(float64) < 1e6 {
			t.Errorf("result %d: exit %v, stdout %v bytes, stderr %v bytes", i, r["exitCode"], r["stdoutBytes"], r["stderrBytes"])
		}
	}
	if js, _ := json.Marshal(res.StructuredContent); len(js) > 100_000 {
		t.Errorf("the structured content is %d bytes", len(js))
	}
	if got := text(res); !strings.Contains(got, "\n299999\n300000\n") || strings.Count(got, "exit ") < len(cmds) {
		t.Errorf("the text lost the output or a result:\n%.2000s", got)
	}
}

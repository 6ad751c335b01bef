package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/approval"
)

// pendingApproval records a pending approval of run_command with args in
// a workspace of the juju home.
func pendingApproval(t *testing.T, stateDir string, args map[string]any) string {
	t.Helper()
	raw, _ := json.Marshal(args)
	st := approval.Open(approval.Dir(filepath.Join(stateDir, "workspaces", "app-0123")), approval.Options{})
	r, err := st.Create(approval.Request{Client: "cli\x1b[2Jtest", Plugin: "core-exec", Tool: "run_command", Tier: "X", Args: "{…}", ArgsHash: approval.HashArgs(raw)}, raw)
	if err != nil {
		t.Fatal(err)
	}
	return r.ID
}

func jujuOut(t *testing.T, args ...string) string {
	t.Helper()
	var out, errw bytes.Buffer
	if code := run(context.Background(), args, nil, &out, &errw); code != 0 {
		t.Fatalf("juju %s: exit %d: %s", strings.Join(args, " "), code, errw.String())
	}
	return out.String()
}

// The list shows up to 600 characters of arguments and says plainly when
// there is more; show and --json carry them whole. The client's name is
// the client's text: escaped too.
func TestApprovalsListAndShow(t *testing.T) {
	dirs := jujuHome(t)
	long := strings.Repeat("harmless ", 200) + "; touch PAYLOAD_AT_THE_END"
	id := pendingApproval(t, dirs.State, map[string]any{"command": long})
	short := pendingApproval(t, dirs.State, map[string]any{"command": "make   test\t\x1b"})

	list := jujuOut(t, "approvals")
	if strings.Contains(list, "PAYLOAD_AT_THE_END") || !strings.Contains(list, "more characters not shown: juju approvals show "+id) {
		t.Errorf("the list must cut the long arguments and say so:\n%s", list)
	}
	if !strings.Contains(list, `{command: "make⟨3 spaces⟩test\t\x1b"}`) || strings.Contains(list, "show "+short) {
		t.Errorf("the list must show short arguments whole, with no note:\n%s", list)
	}
	if strings.Contains(list, "\x1b") || !strings.Contains(list, `cli\x1b[2Jtest`) {
		t.Errorf("the list prints the client's name raw:\n%q", list)
	}

	show := jujuOut(t, "approvals", "show", id)
	if !strings.Contains(show, "; touch PAYLOAD_AT_THE_END\"}") || !strings.Contains(show, "approve "+id) {
		t.Errorf("show must show the arguments whole:\n%s", show)
	}
	var got struct {
		ArgsFull  map[string]string `json:"argsFull"`
		ArgsShown string            `json:"argsShown"`
	}
	if err := json.Unmarshal([]byte(jujuOut(t, "approvals", "show", id, "--json")), &got); err != nil ||
		got.ArgsFull["command"] != long || !strings.HasSuffix(got.ArgsShown, `PAYLOAD_AT_THE_END"}`) {
		t.Errorf("show --json: %+v %v", got, err)
	}

	// An approval recorded by an earlier juju has its arguments in short
	// only, and says so.
	os.Remove(filepath.Join(dirs.State, "workspaces", "app-0123", "approvals", short, "args.json"))
	if show := jujuOut(t, "approvals", "show", short); !strings.Contains(show, "(in short, recorded by an earlier juju) {…}") {
		t.Errorf("an earlier record:\n%s", show)
	}
}

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

// waiting records a pending approval of client (of principal) in the
// workspace ws of the juju home.
func waiting(t *testing.T, stateDir, ws, principal, client string) string {
	t.Helper()
	st := approval.Open(approval.Dir(filepath.Join(stateDir, "workspaces", ws)), approval.Options{})
	r, err := st.Create(approval.Request{Client: client, Principal: principal, Tool: "run_command", Tier: "X", Args: "{}", ArgsHash: approval.HashArgs([]byte(client))}, []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	return r.ID
}

// stateOf is the state of the approval id, as juju approvals --json has it.
func stateOf(t *testing.T, id string) string {
	t.Helper()
	var recs []struct{ ID, State string }
	json.Unmarshal([]byte(jujuOut(t, "approvals", "--json")), &recs)
	for _, r := range recs {
		if r.ID == id {
			return r.State
		}
	}
	return "missing"
}

// deny --client refuses the waiting calls of one client, in every
// workspace, by the name listed or an OAuth client's id; --all refuses the
// rest. Nothing else is touched.
func TestApprovalsDenyMany(t *testing.T) {
	dirs := jujuHome(t)
	flood := []string{waiting(t, dirs.State, "app-1", "", "flood"), waiting(t, dirs.State, "app-2", "", "flood")}
	remote := []string{waiting(t, dirs.State, "app-1", "oauth:c_1", "one [oauth:c_1]"), waiting(t, dirs.State, "app-1", "oauth:c_1", "two [oauth:c_1]")}
	victim := waiting(t, dirs.State, "app-1", "", "victim")
	escaped := waiting(t, dirs.State, "app-1", "", "esc\x1bape")

	out := jujuOut(t, "approvals", "deny", "--client", "flood")
	if !strings.Contains(out, "Denied 2 calls") {
		t.Errorf("deny --client flood:\n%s", out)
	}
	jujuOut(t, "approvals", "deny", "--client", "oauth:c_1")
	if out := jujuOut(t, "approvals", "deny", "--client", `esc\x1bape`); !strings.Contains(out, "Denied 1 call. ") { // as listed
		t.Errorf("deny --client of one call:\n%s", out)
	}
	for _, id := range append(append(flood, remote...), escaped) {
		if s := stateOf(t, id); s != "denied" {
			t.Errorf("%s is %s, want denied", id, s)
		}
	}
	if s := stateOf(t, victim); s != "pending" {
		t.Fatalf("another client's call is %s, want still pending", s)
	}

	var got []struct{ ID, State, Client string }
	if err := json.Unmarshal([]byte(jujuOut(t, "approvals", "deny", "--all", "--json")), &got); err != nil || len(got) != 1 || got[0].ID != victim || got[0].State != "denied" {
		t.Errorf("deny --all --json: %+v %v", got, err)
	}
	if out := jujuOut(t, "approvals", "deny", "--all"); !strings.Contains(out, "Nothing to deny") {
		t.Errorf("deny --all with nothing waiting:\n%s", out)
	}
	for _, args := range [][]string{{"deny"}, {"deny", victim, "--all"}, {"deny", "--all", "--client", "x"}, {"deny", victim, "--json"}} {
		var o, e bytes.Buffer
		if code := run(context.Background(), append([]string{"approvals"}, args...), nil, &o, &e); code == 0 {
			t.Errorf("juju approvals %v succeeded, want a usage error", args)
		}
	}
}

// On a terminal, approve first shows the call its id names and runs it
// only on a yes: an id relayed by a model may name another call than the
// one the owner means. Anything but y or yes leaves the call waiting.
func TestApproveAsksFirst(t *testing.T) {
	dirs := jujuHome(t)
	id := waiting(t, dirs.State, "app-1", "", "asker")
	for _, answer := range []string{"\n", "n\n", "whatever\n", ""} {
		var w bytes.Buffer
		ok, err := confirmApproval(&w, strings.NewReader(answer), id)
		if err != nil || ok {
			t.Fatalf("answer %q: %v %v", answer, ok, err)
		}
		if !strings.Contains(w.String(), "client  asker") || !strings.Contains(w.String(), "Run this call once? [y/N]") {
			t.Errorf("answer %q: the question shown:\n%s", answer, w.String())
		}
		if s := stateOf(t, id); s != "pending" {
			t.Fatalf("answer %q: the call is %s, want still pending", answer, s)
		}
	}
	var w bytes.Buffer
	if ok, err := confirmApproval(&w, strings.NewReader("Yes\n"), id); err != nil || !ok {
		t.Fatalf("yes: %v %v", ok, err)
	}
	// Not a terminal (a script): no question, as before; --yes the same.
	jujuOut(t, "approvals", "approve", id)
	if s := stateOf(t, id); s != "approved" {
		t.Errorf("approve from a script: %s", s)
	}
	if ok, err := confirmApproval(&w, strings.NewReader(""), id); err != nil || !ok {
		t.Errorf("an id already decided is left to approve to explain: %v %v", ok, err)
	}
}

// On a terminal, approve shows what juju says the call does, every line
// of it, before the arguments: for apply_changes the plan's paths, which
// the arguments (a plan id) do not show.
func TestApproveAsksWithWhatTheCallDoes(t *testing.T) {
	dirs := jujuHome(t)
	st := approval.Open(approval.Dir(filepath.Join(dirs.State, "workspaces", "app-1")), approval.Options{})
	args := []byte(`{"planId":"p000001"}`)
	r, err := st.Create(approval.Request{Client: "asker", Tool: "apply_changes", Tier: "E", Args: `{planId: "p000001"}`, ArgsHash: approval.HashArgs(args),
		What: "applies plan p000001: 2 path(s), +1 -3 lines in all:\n  modified \"a.txt\" +1 -0\n  deleted \"b.txt\" +0 -3"}, args)
	if err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	if ok, err := confirmApproval(&w, strings.NewReader("n\n"), r.ID); err != nil || ok {
		t.Fatalf("no: %v %v", ok, err)
	}
	want := "  does    it applies plan p000001: 2 path(s), +1 -3 lines in all:\n            modified \"a.txt\" +1 -0\n            deleted \"b.txt\" +0 -3\n  args    {planId: \"p000001\"}\n"
	if !strings.Contains(w.String(), want) {
		t.Errorf("the question shown:\n%s\nwant it to hold:\n%s", w.String(), want)
	}
}

package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/jujutools/juju/host"
)

func TestAccepted(t *testing.T) {
	tests := []struct {
		action  mcp.ElicitationResponseAction
		content any
		want    bool
	}{
		{mcp.ElicitationResponseActionAccept, map[string]any{"approve": true}, true},
		{mcp.ElicitationResponseActionAccept, nil, true},
		{mcp.ElicitationResponseActionAccept, map[string]any{"approve": false}, false},
		{mcp.ElicitationResponseActionDecline, map[string]any{"approve": true}, false},
		{mcp.ElicitationResponseActionCancel, nil, false},
		{mcp.ElicitationResponseActionAccept, map[string]any{}, true},
		{mcp.ElicitationResponseActionAccept, map[string]any{"approve": "true"}, true},
		// An answer juju cannot read is no yes.
		{mcp.ElicitationResponseActionAccept, map[string]any{"approve": "maybe"}, false},
		{mcp.ElicitationResponseActionAccept, map[string]any{"approve": "false"}, false},
		{mcp.ElicitationResponseActionAccept, map[string]any{"approve": 1.0}, false},
		{mcp.ElicitationResponseActionAccept, map[string]any{"approve": nil}, false},
		{mcp.ElicitationResponseActionAccept, map[string]any{"approve": []any{true}}, false},
		{mcp.ElicitationResponseActionAccept, "yes", false},
		{mcp.ElicitationResponseActionAccept, []any{true}, false},
		{"", nil, false},
		{"ACCEPT", nil, false},
	}
	for _, tt := range tests {
		res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: tt.action, Content: tt.content}}
		if got := accepted(res); got != tt.want {
			t.Errorf("accepted(%s, %v) = %v, want %v", tt.action, tt.content, got, tt.want)
		}
	}
}

// The round trip: the first ask hands out the question; the retry with an
// answer under the signed state is read; an answer whose state belongs to
// another call is not.
// TestRoundTripAsker checks the request state of a question handed out as
// an input-required result: the answer is taken only with the state juju
// signed for the same client, tool and arguments, within stateTTL, and
// once, so that one yes runs one call.
func TestRoundTripAsker(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	used := newStateLedger()
	now := time.Now()
	clock := func() time.Time { return now }
	q := host.Question{Client: "c", Plugin: "p", Tool: "edit_file", Tier: "E", Args: []byte(`{"path":"a"}`), ArgsHash: "h1"}
	ask := func(q host.Question, params mcp.MultiRoundTripParams) (host.Answer, *mcp.CallToolResult) {
		t.Helper()
		a := &roundTripAsker{key: key, used: used, params: params, now: clock}
		ans, err := a.Ask(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		return ans, a.question()
	}
	hand := func() string {
		t.Helper()
		a, res := ask(q, mcp.MultiRoundTripParams{})
		if a != host.Handed || res == nil || res.ResultType != mcp.ResultTypeInputRequired || res.RequestState == "" {
			t.Fatalf("ask: %v %+v, want a question handed out", a, res)
		}
		return res.RequestState
	}
	state := hand()
	_, res := ask(q, mcp.MultiRoundTripParams{})
	if msg := res.InputRequests[approvalInput].Elicitation.Message; !strings.Contains(msg, "edit_file") || !strings.Contains(msg, `{path: "a"}`) {
		t.Errorf("question text: %s", msg)
	}
	if res.RequestState == state {
		t.Error("two questions got the same state")
	}
	yes := mcp.InputResponses{approvalInput: mcp.NewElicitationInputResponse(mcp.ElicitationResult{
		ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"approve": true}},
	})}
	with := func(state string) mcp.MultiRoundTripParams {
		return mcp.MultiRoundTripParams{InputResponses: yes, RequestState: state}
	}
	for name, other := range map[string]func(*host.Question){
		"other arguments": func(q *host.Question) { q.ArgsHash = "h2" },
		"another tool":    func(q *host.Question) { q.Tool = "write_file" },
		"another client":  func(q *host.Question) { q.Client = "d" },
	} {
		o := q
		other(&o)
		if a, _ := ask(o, with(state)); a != host.Handed {
			t.Errorf("an answer replayed onto %s was taken: %v", name, a)
		}
	}
	parts := strings.Split(state, ".")
	if len(parts) != 4 {
		t.Fatalf("state %q: want nonce.time.epoch.mac", state)
	}
	nonce, at, epoch, mac := parts[0], parts[1], parts[2], parts[3]
	for name, forged := range map[string]string{
		"a later time":  nonce + "." + fmt.Sprint(now.Unix()+60) + "." + epoch + "." + mac,
		"another nonce": "AAAAAAAAAAAAAAAA." + at + "." + epoch + "." + mac,
		"another epoch": nonce + "." + at + ".e2." + mac,
		"no epoch":      nonce + "." + at + "." + mac,
		"no mac":        nonce + "." + at + "." + epoch,
		"empty":         "",
	} {
		if a, _ := ask(q, with(forged)); a != host.Handed {
			t.Errorf("a state with %s was taken: %v", name, a)
		}
	}
	if a, _ := ask(q, with(state)); a != host.Accepted {
		t.Fatalf("the answer: %v, want Accepted", a)
	}
	if a, _ := ask(q, with(state)); a != host.Handed {
		t.Fatalf("the same answer again: %v, want a new question", a)
	}

	old := hand()
	now = now.Add(stateTTL + time.Second)
	if a, _ := ask(q, with(old)); a != host.Handed {
		t.Fatalf("an answer past stateTTL: %v, want a new question", a)
	}
	if a, _ := ask(q, with(hand())); a != host.Accepted {
		t.Fatalf("a fresh answer: %v, want Accepted", a)
	}
	if len(used.used) != 1 {
		t.Errorf("the ledger holds %d states, want the fresh one alone: expired ones are dropped", len(used.used))
	}
}

// An answer given while the workspace changed through juju (its epoch
// moved since the question was handed out) is not taken: the owner is
// asked again, and the new question says why. A no stands whatever
// changed. The epoch is signed: a client cannot carry an answer over to a
// new epoch by rewriting it in the state.
func TestRoundTripAskerEpoch(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	used := newStateLedger()
	q := host.Question{Client: "c", Plugin: "p", Tool: "run_command", Tier: "X", Args: []byte(`{"command":"bash s.sh"}`), ArgsHash: "h1", Epoch: "e1"}
	ask := func(q host.Question, params mcp.MultiRoundTripParams) (host.Answer, *mcp.CallToolResult) {
		t.Helper()
		a := &roundTripAsker{key: key, used: used, params: params}
		ans, err := a.Ask(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		return ans, a.question()
	}
	reply := func(action mcp.ElicitationResponseAction, state string) mcp.MultiRoundTripParams {
		return mcp.MultiRoundTripParams{RequestState: state, InputResponses: mcp.InputResponses{approvalInput: mcp.NewElicitationInputResponse(mcp.ElicitationResult{
			ElicitationResponse: mcp.ElicitationResponse{Action: action, Content: map[string]any{"approve": true}},
		})}}
	}
	hand := func(q host.Question) string {
		t.Helper()
		_, res := ask(q, mcp.MultiRoundTripParams{})
		return res.RequestState
	}
	moved := q
	moved.Epoch = "e2"

	a, res := ask(moved, reply(mcp.ElicitationResponseActionAccept, hand(q)))
	if a != host.Handed {
		t.Fatalf("a yes given while the epoch moved: %v, want the owner asked again", a)
	}
	if msg := res.InputRequests[approvalInput].Elicitation.Message; !strings.HasPrefix(msg, host.ChangedWhileAsked) {
		t.Errorf("the question asked again does not say why: %s", msg)
	}
	if a, _ := ask(moved, reply(mcp.ElicitationResponseActionAccept, res.RequestState)); a != host.Accepted {
		t.Errorf("a yes to the question asked again, the epoch the same: %v, want Accepted", a)
	}
	if a, _ := ask(moved, reply(mcp.ElicitationResponseActionDecline, hand(q))); a != host.Declined {
		t.Errorf("a no given while the epoch moved: %v, want Declined", a)
	}
	parts := strings.Split(hand(q), ".")
	forged := strings.Join([]string{parts[0], parts[1], "e2", parts[3]}, ".")
	if a, res := ask(moved, reply(mcp.ElicitationResponseActionAccept, forged)); a != host.Handed || strings.Contains(res.InputRequests[approvalInput].Elicitation.Message, host.ChangedWhileAsked) {
		t.Errorf("a state whose epoch was rewritten: %v, want a plain new question", a)
	}
}

// The question shows the arguments whole, with the run of spaces and the
// control characters visible, however long they are.
func TestQuestionShowsAll(t *testing.T) {
	cmd := `echo "running the unit tests"` + strings.Repeat(" ", 200) + "; touch HIDDEN_PAYLOAD_RAN \x1b[8m"
	content := strings.Repeat("filler ", 20_000) + "END_OF_CONTENT"
	args, _ := json.Marshal(map[string]string{"command": cmd, "content": content})
	got := question(host.Question{Client: "evil\x1b]0;x\a", Plugin: "core-exec", Tool: "run_command", Tier: "X", Args: args})
	for _, want := range []string{`touch HIDDEN_PAYLOAD_RAN \x1b[8m`, `tests\"⟨200 spaces⟩;`, "END_OF_CONTENT", `evil\x1b]0;x\x07`} {
		if !strings.Contains(got, want) {
			t.Errorf("the question does not show %q", want)
		}
	}
	if strings.ContainsAny(got, "\x1b\a") {
		t.Errorf("the question carries raw control characters")
	}
}

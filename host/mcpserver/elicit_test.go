package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

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
func TestRoundTripAsker(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	q := host.Question{Client: "c", Plugin: "p", Tool: "edit_file", Tier: "E", Args: []byte(`{"path":"a"}`), ArgsHash: "h1"}
	first := &roundTripAsker{key: key}
	if a, err := first.Ask(context.Background(), q); a != host.Handed || err != nil {
		t.Fatalf("first ask: %v %v, want Handed", a, err)
	}
	res := first.question()
	if res == nil || res.ResultType != mcp.ResultTypeInputRequired || res.RequestState == "" {
		t.Fatalf("question: %+v", res)
	}
	if msg := res.InputRequests[approvalInput].Elicitation.Message; !strings.Contains(msg, "edit_file") || !strings.Contains(msg, `{path: "a"}`) {
		t.Errorf("question text: %s", msg)
	}
	answer := mcp.InputResponses{approvalInput: mcp.NewElicitationInputResponse(mcp.ElicitationResult{
		ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"approve": true}},
	})}
	retry := &roundTripAsker{key: key, params: mcp.MultiRoundTripParams{InputResponses: answer, RequestState: res.RequestState}}
	if a, err := retry.Ask(context.Background(), q); a != host.Accepted || err != nil {
		t.Fatalf("retry: %v %v", a, err)
	}
	other := q
	other.ArgsHash = "h2"
	replay := &roundTripAsker{key: key, params: mcp.MultiRoundTripParams{InputResponses: answer, RequestState: res.RequestState}}
	if a, _ := replay.Ask(context.Background(), other); a != host.Handed {
		t.Fatalf("an answer replayed onto other arguments was taken: %v", a)
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

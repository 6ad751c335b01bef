package mcpserver

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	b64 "encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/internal/visible"
)

// The owner is asked through the client's elicitation, a form with one
// yes/no field. Clients of protocol versions before 2026-07-28 get a
// server-initiated elicitation/create request while the call waits
// (legacyAsker); newer clients get the question as the call's
// input-required result and answer it by retrying the call with the
// owner's answer (roundTripAsker, SEP-2322).

// approvalInput keys the question among a result's input requests.
const approvalInput = "juju-approval"

// errNoElicitation is the client's refusal to take an elicitation.
var errNoElicitation = errors.New("the client did not take the elicitation request")

// elicitation is the question as MCP carries it.
func elicitation(q host.Question) mcp.ElicitationParams {
	return mcp.ElicitationParams{
		Message: question(q),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"approve": map[string]any{
					"type":        "boolean",
					"title":       "Run this call",
					"description": "Let the call run once.",
					"default":     true,
				},
			},
			"required": []string{"approve"},
		},
	}
}

// accepted reads the owner's answer: accept with approve true (or the
// string "true", as some forms send a checkbox), or without content or the
// field (its default is true), runs the call. Anything else refuses it:
// decline, cancel, approve false, an approve of another type or value,
// content that is not an object. An answer juju cannot read is no yes.
func accepted(res *mcp.ElicitationResult) bool {
	if res.Action != mcp.ElicitationResponseActionAccept {
		return false
	}
	if res.Content == nil {
		return true
	}
	m, ok := res.Content.(map[string]any)
	if !ok {
		return false
	}
	v, ok := m["approve"]
	if !ok {
		return true
	}
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return strings.EqualFold(v, "true")
	}
	return false
}

// answer turns the client's answer into the host's.
func answer(res *mcp.ElicitationResult) host.Answer {
	if accepted(res) {
		return host.Accepted
	}
	return host.Declined
}

// question is what the owner reads: the arguments whole, with space runs,
// control and invisible characters made visible (visible.Args), however
// long they are: a prompt never hides text.
func question(q host.Question) string {
	tier := map[string]string{"E": "changes files", "X": "runs commands or reaches the network"}[q.Tier]
	if tier == "" {
		tier = "tier " + q.Tier
	}
	who := q.Client
	if who == "" {
		who = "the client"
	}
	return fmt.Sprintf("juju: %s wants to call %s (tier %s: %s, plugin %s) with %s. Allow this call once?",
		visible.String(who), q.Tool, q.Tier, tier, q.Plugin, visible.Args(q.Args, visible.Limits{}))
}

// legacyAsker sends elicitation/create and waits for the answer.
type legacyAsker struct{ mcp *server.MCPServer }

var _ host.Asker = legacyAsker{}

// Ask implements host.Asker.
func (a legacyAsker) Ask(ctx context.Context, q host.Question) (host.Answer, error) {
	res, err := a.mcp.RequestElicitation(ctx, mcp.ElicitationRequest{
		Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
		Params:  elicitation(q),
	})
	if err != nil {
		return host.Declined, fmt.Errorf("%w: %w", errNoElicitation, err)
	}
	if res == nil {
		return host.Declined, errNoElicitation
	}
	return answer(res), nil
}

// roundTripAsker hands the question to the client as an input-required
// result, and reads the answer from the retried call.
type roundTripAsker struct {
	key    []byte // signs the request state, binding an answer to its call
	params mcp.MultiRoundTripParams

	mu     sync.Mutex
	result *mcp.CallToolResult // the question, once handed out
}

var _ host.Asker = (*roundTripAsker)(nil)

// state binds the question to the call: client, tool and arguments.
func (a *roundTripAsker) state(q host.Question) string {
	m := hmac.New(sha256.New, a.key)
	fmt.Fprintf(m, "%s\x00%s\x00%s", q.Client, q.Tool, q.ArgsHash)
	return b64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Ask implements host.Asker.
func (a *roundTripAsker) Ask(_ context.Context, q host.Question) (host.Answer, error) {
	state := a.state(q)
	if ans := server.ElicitationResponse(a.params.InputResponses, approvalInput); ans != nil &&
		hmac.Equal([]byte(a.params.RequestState), []byte(state)) {
		return answer(ans), nil
	}
	a.mu.Lock()
	a.result = server.NewInputRequestBuilder(state).Elicit(approvalInput, elicitation(q)).ToolResult()
	a.mu.Unlock()
	return host.Handed, nil
}

func (a *roundTripAsker) question() *mcp.CallToolResult {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.result
}

// asker is the Asker for the client of this call, when it declared the
// elicitation capability: at initialize, or, for newer protocol versions,
// on the request itself (then the round-trip asker, returned twice so the
// front can hand its question out). Nil when the client cannot be asked.
func (s *Server) asker(ctx context.Context, req mcp.CallToolRequest) (host.Asker, *roundTripAsker) {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		if info.ClientCapabilities == nil || info.ClientCapabilities.Elicitation == nil {
			return nil, nil
		}
		a := &roundTripAsker{key: s.stateKey, params: req.Params.MultiRoundTripParams}
		return a, a
	}
	sess, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo)
	if !ok || sess.GetClientCapabilities().Elicitation == nil {
		return nil, nil
	}
	if _, ok := sess.(server.SessionWithElicitation); !ok {
		return nil, nil
	}
	return legacyAsker{mcp: s.mcp}, nil
}

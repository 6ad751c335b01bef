package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/host"
)

// asker asks the owner through the client's elicitation: a form with one
// yes/no field, which the owner accepts or declines.
type asker struct{ mcp *server.MCPServer }

var _ host.Asker = asker{}

// errNoElicitation is the client's refusal to take an elicitation.
var errNoElicitation = errors.New("the client did not take the elicitation request")

// Ask implements host.Asker. Accept with approve=true runs the call; an
// accept with approve=false, a decline or a cancel refuses it.
func (a asker) Ask(ctx context.Context, q host.Question) (bool, error) {
	req := mcp.ElicitationRequest{
		Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
		Params: mcp.ElicitationParams{
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
		},
	}
	res, err := a.mcp.RequestElicitation(ctx, req)
	if err != nil {
		return false, fmt.Errorf("%w: %w", errNoElicitation, err)
	}
	if res == nil {
		return false, errNoElicitation
	}
	if res.Action != mcp.ElicitationResponseActionAccept {
		return false, nil
	}
	if m, ok := res.Content.(map[string]any); ok {
		if v, ok := m["approve"].(bool); ok {
			return v, nil
		}
	}
	return true, nil // accepted without the field: the accept is the answer
}

// question is what the owner reads.
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
		who, q.Tool, q.Tier, tier, q.Plugin, q.Args)
}

// withAsker puts the asker in ctx when the session's client declared the
// elicitation capability at initialize.
func (s *Server) withAsker(ctx context.Context) context.Context {
	sess, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo)
	if !ok || sess.GetClientCapabilities().Elicitation == nil {
		return ctx
	}
	if _, ok := sess.(server.SessionWithElicitation); !ok {
		return ctx
	}
	return host.WithAsker(ctx, asker{mcp: s.mcp})
}

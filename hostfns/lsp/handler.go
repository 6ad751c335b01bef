package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"

	"github.com/sourcegraph/jsonrpc2"
)

// handler serves the server's requests and notifications on the
// connection's read loop: notifications in order, inline (state changes
// only); the answer to a request is computed inline from state and sent
// from a goroutine, so the read loop never waits on a write.
type handler struct{ c *client }

func (h handler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	res, err := h.c.handle(ctx, conn, req)
	if req.Notif {
		return
	}
	go func() {
		if e, ok := err.(*jsonrpc2.Error); ok {
			conn.ReplyWithError(ctx, req.ID, e)
			return
		}
		conn.Reply(ctx, req.ID, res)
	}()
}

// handle serves one message from the server.
func (c *client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p publishDiagnosticsParams
		if json.Unmarshal(params, &p) == nil {
			c.update(func() { c.pushed[p.URI] = pushed{version: p.Version, gen: c.gen, items: p.Diagnostics} })
		}
	case "$/progress":
		var p progressParams
		if json.Unmarshal(params, &p) == nil {
			tok := string(p.Token)
			c.update(func() {
				switch p.Value.Kind {
				case "begin":
					c.progress[tok] = true
				case "end":
					delete(c.progress, tok)
				}
			})
		}
	case "window/logMessage", "window/showMessage":
		var p logMessageParams
		if json.Unmarshal(params, &p) == nil {
			if c.readyLog != nil && c.readyLog.MatchString(p.Message) {
				c.update(func() { c.sawReadyLog = true })
			}
			c.m.log.Debug("language server says", "server", c.reg.Name, "message", p.Message)
		}
	case "workspace/configuration":
		var p configurationParams
		json.Unmarshal(params, &p)
		out := make([]any, len(p.Items)) // null for each: the server's defaults
		return out, nil
	case "client/registerCapability":
		var p registrationParams
		if json.Unmarshal(params, &p) == nil {
			c.update(func() {
				for _, r := range p.Registrations {
					if r.Method == "textDocument/diagnostic" {
						c.pullRegs[r.ID] = true
					}
				}
			})
		}
		return nil, nil
	case "client/unregisterCapability":
		var p unregistrationParams
		if json.Unmarshal(params, &p) == nil {
			c.update(func() {
				for _, r := range p.Unregisterations {
					delete(c.pullRegs, r.ID)
				}
			})
		}
		return nil, nil
	case "window/workDoneProgress/create", "window/showMessageRequest", "window/showDocument",
		"workspace/diagnostic/refresh", "workspace/semanticTokens/refresh", "workspace/inlayHint/refresh",
		"workspace/codeLens/refresh", "workspace/inlineValue/refresh":
		return nil, nil
	case "workspace/workspaceFolders":
		return []any{map[string]any{"uri": fileURI(c.root), "name": filepath.Base(c.root)}}, nil
	case "workspace/applyEdit":
		// A server never changes files behind the journal.
		return map[string]any{"applied": false, "failureReason": "juju applies no edits from language servers"}, nil
	default:
		if !req.Notif {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "juju does not handle " + req.Method}
		}
	}
	return nil, nil
}

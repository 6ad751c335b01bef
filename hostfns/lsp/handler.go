package lsp

import (
	"encoding/json"
	"path/filepath"
)

// Bounds of what a server's notifications make juju keep.
const (
	maxPushed      = 4096 // files whose pushed diagnostics are kept
	maxPushedItems = 1000 // diagnostics kept per file
	maxProgress    = 1024 // work-done progress tokens waited for
)

// handle serves one request or notification from the server, on the
// connection's read loop (see rpcConn): state changes only, and the answer
// to a request computed from state.
func (c *client) handle(req *incoming) (any, *rpcError) {
	params := req.params
	switch req.method {
	case "textDocument/publishDiagnostics":
		var p publishDiagnosticsParams
		if json.Unmarshal(params, &p) == nil {
			if len(p.Diagnostics) > maxPushedItems {
				p.Diagnostics = p.Diagnostics[:maxPushedItems]
			}
			c.update(func() {
				// A server may push for every file it knows: past
				// maxPushed files, only the documents juju opened are kept.
				if _, ok := c.pushed[p.URI]; !ok && len(c.pushed) >= maxPushed && c.docs[p.URI] == nil {
					return
				}
				c.pushed[p.URI] = pushed{version: p.Version, gen: c.gen, items: p.Diagnostics}
			})
		}
	case "$/progress":
		var p progressParams
		if json.Unmarshal(params, &p) == nil {
			tok := string(p.Token)
			c.update(func() {
				switch p.Value.Kind {
				case "begin":
					if len(c.progress) < maxProgress { // past it, not waited for
						c.progress[tok] = true
					}
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
		if !req.notification() {
			return nil, &rpcError{Code: codeMethodNotFound, Message: "juju does not handle " + req.method}
		}
	}
	return nil, nil
}

package mcpserver

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/sdk/abi"
)

// refuse answers a call the front refuses before the host runs it (its
// arguments do not fit the tool's input schema): a tool result with the
// error e, recorded in the audit as any call is.
func (s *Server) refuse(ctx context.Context, tool string, args any, e *abi.Error) *mcp.CallToolResult {
	s.refused(ctx, tool, args, e.Code)
	return toMCP(&abi.CallResult{Error: e})
}

// refused records in the audit a call refused before the host ran it.
func (s *Server) refused(ctx context.Context, tool string, args any, code abi.Code) {
	raw, err := json.Marshal(args)
	if err != nil || args == nil {
		raw = []byte("{}")
	}
	s.host.Refused(clientName(ctx), tool, raw, code)
}

// auditUnknownTools records calls to a tool the catalog does not have,
// which mcp-go answers itself (JSON-RPC invalid params) before any handler
// of juju's runs.
func (s *Server) auditUnknownTools(hk *server.Hooks) {
	hk.AddOnError(func(ctx context.Context, _ any, method mcp.MCPMethod, message any, err error) {
		req, ok := message.(*mcp.CallToolRequest)
		if method != mcp.MethodToolsCall || !ok || !errors.Is(err, server.ErrToolNotFound) {
			return
		}
		s.refused(ctx, req.Params.Name, req.Params.Arguments, abi.NotFound)
	})
}

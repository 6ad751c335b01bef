package mcpserver

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// followCatalog makes the server pick up installed plugins that changed
// while it runs (`juju plugins install`, an update, `juju plugins remove`
// in another terminal): before it lists tools or looks one up for a call,
// it asks the host to reload, and when the catalog changed it replaces its
// tools, which sends notifications/tools/list_changed to the client. A
// call to a tool installed a moment ago is thus served, one to a tool
// removed is an unknown tool, and an updated tool runs its new code.
func (s *Server) followCatalog(hk *server.Hooks) {
	hk.AddBeforeListTools(func(context.Context, any, *mcp.ListToolsRequest) { s.sync() })
	hk.AddBeforeCallTool(func(ctx context.Context, _ any, _ *mcp.CallToolRequest) {
		if !served(ctx) { // a call the front serves has synced already (httpcall.go)
			s.sync()
		}
	})
}

// sync replaces the MCP tools with the host's catalog when it changed.
func (s *Server) sync() {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	if !s.host.Reload() {
		return
	}
	tools, schemas, err := s.catalogTools()
	if err != nil {
		// A manifest passed validation at load, so this is a bug: keep
		// serving the tools as they were.
		s.host.Logger().Error("the reloaded catalog cannot be served", "err", err)
		return
	}
	s.schemas.Store(&schemas)
	s.setTools(tools)
	s.noteTools()
}

// setTools replaces mcp-go's tools, which sends notifications/tools/
// list_changed to every session. A session registered before has its
// calls served by mcp-go from then on, which sends it (httpcall.go).
func (s *Server) setTools(tools []server.ServerTool) {
	s.direct.gen.Add(1)
	s.mcp.SetTools(tools...)
	s.direct.gen.Add(1)
}

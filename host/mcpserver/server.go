package mcpserver

import (
	"fmt"

	"github.com/mark3labs/mcp-go/server"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/host/manifest"
)

// Server is juju's MCP server over one Host.
type Server struct {
	host    *host.Host
	mcp     *server.MCPServer
	schemas map[string]*jsonschema.Schema // input schemas by tool name
}

// New builds the MCP server from the host's catalog.
func New(h *host.Host) (*Server, error) {
	s := &Server{host: h, schemas: map[string]*jsonschema.Schema{}}
	cfg := h.Config()
	s.mcp = server.NewMCPServer("juju", cfg.Version,
		server.WithToolCapabilities(false),
		server.WithInstructions(instructions(h)),
		server.WithRecovery(),
	)
	for _, t := range h.Tools() {
		sch, err := manifest.CompileSchema(t.Spec.Name+".input.json", t.Spec.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("tool %s: input schema: %w", t.Spec.Name, err)
		}
		s.schemas[t.Spec.Name] = sch
		tool, err := mcpTool(t.Spec)
		if err != nil {
			return nil, err
		}
		s.mcp.AddTool(tool, s.handle)
	}
	return s, nil
}

// MCP returns the underlying mcp-go server.
func (s *Server) MCP() *server.MCPServer { return s.mcp }

package mcpserver

import (
	"crypto/rand"
	"sync"

	"github.com/mark3labs/mcp-go/server"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/internal/manifest"
)

// Server is juju's MCP server over one Host.
type Server struct {
	host    *host.Host
	mcp     *server.MCPServer
	schemas map[string]*inputSchema // by tool name
	// hs refuses requests before a session's initialize is answered.
	hs *handshakes
	// stateKey signs the state of approval questions handed to clients.
	stateKey []byte
}

// inputSchema is a tool's input schema, compiled on the tool's first call.
type inputSchema struct {
	raw      []byte
	once     sync.Once
	compiled *jsonschema.Schema
	err      error
}

func (s *inputSchema) get(name string) (*jsonschema.Schema, error) {
	s.once.Do(func() {
		s.compiled, s.err = manifest.CompileSchema(name+".input.json", s.raw)
	})
	return s.compiled, s.err
}

// New builds the MCP server from the host's catalog.
func New(h *host.Host) (*Server, error) {
	s := &Server{host: h, schemas: map[string]*inputSchema{}, hs: newHandshakes(), stateKey: make([]byte, 32)}
	rand.Read(s.stateKey)
	cfg := h.Config()
	s.mcp = server.NewMCPServer("juju", cfg.Version,
		server.WithToolCapabilities(false),
		server.WithInstructions(instructions(h)),
		server.WithRecovery(),
		server.WithHooks(s.hs.hooks()),
	)
	for _, t := range h.Tools() {
		s.schemas[t.Spec.Name] = &inputSchema{raw: t.Spec.InputSchema}
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

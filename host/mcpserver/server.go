package mcpserver

import (
	"context"
	"crypto/rand"
	"io"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/host"
)

// Server is juju's MCP server over one Host.
type Server struct {
	host    *host.Host
	mcp     *server.MCPServer
	schemas atomic.Pointer[map[string]*inputSchema] // by tool name; swapped whole by sync (reload.go)
	listed  atomic.Pointer[toolsList]               // the tools as listed, swapped whole by sync
	syncMu  sync.Mutex                              // serialises sync
	// hs refuses requests before a session's initialize is answered.
	hs *handshakes
	// stateKey signs the state of approval questions handed to clients.
	stateKey []byte
	// answered holds the approval questions already answered.
	answered *stateLedger
	// direct are mcp-go's sessions, for the HTTP calls juju serves itself
	// (httpcall.go).
	direct directSessions
	// asked learns the ids of the questions asked over stdio, and askedOut
	// writes their withdrawal (questions); nil over HTTP.
	asked    *questions
	askedOut io.Writer
}

// New builds the MCP server from the host's catalog.
func New(h *host.Host) (*Server, error) {
	s := &Server{host: h, hs: newHandshakes(), stateKey: make([]byte, 32), answered: newStateLedger()}
	rand.Read(s.stateKey)
	cfg := h.Config()
	hooks := s.hs.hooks()
	s.followCatalog(hooks)
	s.auditUnknownTools(hooks)
	s.auditUnparsableCalls(hooks)
	s.direct.track(hooks)
	hooks.AddOnUnregisterSession(func(_ context.Context, cs server.ClientSession) {
		h.SessionEnded(cs.SessionID())
	})
	s.mcp = server.NewMCPServer("juju", cfg.Version,
		server.WithToolCapabilities(true), // tools/list_changed when installed plugins change
		server.WithInstructions(instructions(h)),
		server.WithRecovery(),
		server.WithHooks(hooks),
	)
	tools, schemas, err := s.catalogTools()
	if err != nil {
		return nil, err
	}
	s.schemas.Store(&schemas)
	s.mcp.AddTools(tools...)
	s.noteTools()
	return s, nil
}

// catalogTools turns the host's catalog into MCP tools, and their input
// schemas for validation.
func (s *Server) catalogTools() ([]server.ServerTool, map[string]*inputSchema, error) {
	var tools []server.ServerTool
	schemas := map[string]*inputSchema{}
	for _, t := range s.host.Tools() {
		schemas[t.Spec.Name] = &inputSchema{raw: t.Spec.InputSchema}
		tool, err := mcpTool(t.Spec)
		if err != nil {
			return nil, nil, err
		}
		tools = append(tools, server.ServerTool{Tool: tool, Handler: s.handle})
	}
	return tools, schemas, nil
}

// schema is the input schema of the tool name (nil: not in the catalog).
func (s *Server) schema(name string) *inputSchema { return (*s.schemas.Load())[name] }

// MCP returns the underlying mcp-go server.
func (s *Server) MCP() *server.MCPServer { return s.mcp }

package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// errNotInitialized refuses a request that comes before the client's
// initialize was answered; mcp-go sends it as an invalid request (-32600).
var errNotInitialized = errors.New("the server is not initialized: send initialize first, and other requests once it is answered")

// handshakes remembers which client sessions have had their initialize
// answered, by session id, so that the check holds per connection on every
// transport (stdio has one session; each HTTP session has its own id).
// mcp-go serves any request before initialize, and its HTTP sessions say
// they are always initialized, so juju keeps this itself.
type handshakes struct {
	mu      sync.Mutex
	done    map[string]bool
	version map[string]string // the protocol version each session's initialize agreed
}

func newHandshakes() *handshakes {
	return &handshakes{done: map[string]bool{}, version: map[string]string{}}
}

// hooks returns the mcp-go hooks that keep and check the state.
func (h *handshakes) hooks() *server.Hooks {
	hk := &server.Hooks{}
	hk.AddAfterInitialize(func(ctx context.Context, _ any, _ *mcp.InitializeRequest, res *mcp.InitializeResult) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.done[sessionID(ctx)] = true
		if res != nil {
			h.version[sessionID(ctx)] = res.ProtocolVersion
		}
	})
	hk.AddOnUnregisterSession(func(_ context.Context, s server.ClientSession) {
		h.forget(s.SessionID())
	})
	hk.AddOnRequestInitialization(h.check)
	return hk
}

// forget drops what is kept of session id, whose initialize was served
// but never answered (its client hung up): mcp-go never registered it, so
// the hook that unregisters a session never runs for it.
func (h *handshakes) forget(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.done, id)
	delete(h.version, id)
}

// protocol is the protocol version the initialize of the session of ctx
// agreed ("" before it is answered).
func (h *handshakes) protocol(ctx context.Context) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.version[sessionID(ctx)]
}

// initialized reports whether the session of ctx has had its initialize
// answered.
func (h *handshakes) initialized(ctx context.Context) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.done[sessionID(ctx)]
}

// check runs before mcp-go serves a request (notifications never reach it).
// It lets through initialize, ping (which MCP allows before initialize),
// server/discover and requests of the stateless protocol (2026-07-28 and
// later, which has no initialize: each request carries its protocol
// version, client and capabilities, and mcp-go refuses one without them);
// anything else waits for the session's initialize to be answered.
func (h *handshakes) check(ctx context.Context, _ any, message any) error {
	if h.initialized(ctx) {
		return nil
	}
	raw, _ := message.(json.RawMessage)
	var head struct {
		Method mcp.MCPMethod   `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return errNotInitialized
	}
	switch head.Method {
	case mcp.MethodInitialize, mcp.MethodPing, mcp.MethodServerDiscover:
		return nil
	}
	var params struct {
		Meta *mcp.Meta `json:"_meta"`
	}
	if len(head.Params) > 0 && json.Unmarshal(head.Params, &params) == nil &&
		mcp.IsModernProtocol(params.Meta.ProtocolVersion()) {
		return nil
	}
	return errNotInitialized
}

// sessionID is the id of the client session of ctx ("" without one).
func sessionID(ctx context.Context) string {
	if s := server.ClientSessionFromContext(ctx); s != nil {
		return s.SessionID()
	}
	return ""
}

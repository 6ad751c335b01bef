package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// fakeSession is a client session with an id and nothing else.
type fakeSession struct{ id string }

func (s fakeSession) SessionID() string                                   { return s.id }
func (s fakeSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return nil }
func (s fakeSession) Initialize()                                         {}
func (s fakeSession) Initialized() bool                                   { return true }

func TestRequestsWaitForInitialize(t *testing.T) {
	hs := newHandshakes()
	srv := server.NewMCPServer("t", "1", server.WithHooks(hs.hooks()), server.WithToolCapabilities(false))
	ran := 0
	srv.AddTool(mcp.NewTool("echo"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ran++
		return mcp.NewToolResultText("ran"), nil
	})
	a := srv.WithContext(context.Background(), fakeSession{"a"})
	b := srv.WithContext(context.Background(), fakeSession{"b"})
	send := func(ctx context.Context, msg string) (code int, message string) {
		t.Helper()
		out, _ := json.Marshal(srv.HandleMessage(ctx, json.RawMessage(msg)))
		var resp struct {
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		json.Unmarshal(out, &resp)
		if resp.Error == nil {
			return 0, ""
		}
		return resp.Error.Code, resp.Error.Message
	}
	const (
		call       = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`
		list       = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
		ping       = `{"jsonrpc":"2.0","id":3,"method":"ping"}`
		badParams  = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[1]}`
		oldMeta    = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}}`
		modern     = `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
		initialize = `{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	)
	for _, msg := range []string{call, list, badParams, oldMeta} {
		if code, text := send(a, msg); code != mcp.INVALID_REQUEST || !strings.Contains(text, "send initialize first") {
			t.Fatalf("%s before initialize: %d %q", msg, code, text)
		}
	}
	if ran != 0 {
		t.Fatal("a tool ran before initialize")
	}
	if code, _ := send(a, ping); code != 0 {
		t.Fatalf("ping before initialize: %d", code)
	}
	if code, text := send(a, initialize); code != 0 {
		t.Fatalf("initialize: %d %q", code, text)
	}
	if code, text := send(a, call); code != 0 || ran != 1 {
		t.Fatalf("call after initialize: %d %q, ran %d", code, text, ran)
	}
	if code, _ := send(b, call); code != mcp.INVALID_REQUEST || ran != 1 {
		t.Fatalf("another session's call before its initialize: %d, ran %d", code, ran)
	}
	// The stateless protocol has no initialize: its requests carry what it
	// would have said.
	if code, text := send(b, modern); code != 0 || ran != 2 {
		t.Fatalf("a request of the stateless protocol: %d %q, ran %d", code, text, ran)
	}
}

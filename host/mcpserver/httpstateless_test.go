package mcpserver

import (
	"context"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// TestStatelessCancelStaysWithItsPrincipal: under protocol 2026-07-28 every
// principal's calls share mcp-go's namespace of request ids (no session),
// so a cancellation naming another principal's call must not reach mcp-go;
// a principal still cancels its own calls, which then get no answer (202,
// no body: httpinflight.go's cancellable). Nor may one naming the string
// "7" reach it as the call 7.
func TestStatelessCancelStaysWithItsPrincipal(t *testing.T) {
	started := make(chan struct{}, 1)
	m := server.NewMCPServer("t", "1", server.WithToolCapabilities(false))
	m.AddTool(mcp.NewTool("slow"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		started <- struct{}{}
		select {
		case <-ctx.Done():
			return mcp.NewToolResultText("cancelled"), nil
		case <-time.After(1500 * time.Millisecond):
			return mcp.NewToolResultText("finished"), nil
		}
	})
	lim := Limits{}.withDefaults()
	sess := newSessions(lim.MaxSessions, lim.SessionIdle)
	inner := server.NewStreamableHTTPServer(m, server.WithSessionIdManager(sess), server.WithDisableLocalhostProtection(true))
	oauth := &fakeOAuth{tokens: map[string]string{"oauth-good-token-of-client-c1": "c1"}}
	front := newFront(HTTPConfig{Token: testToken, OAuth: oauth, Limits: lim}, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 7777}, sess, inner)

	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"x","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	post := func(token, method, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/mcp", strings.NewReader(body))
		r.Host = "127.0.0.1:7777"
		for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
			"Authorization": "Bearer " + token, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": method} {
			r.Header.Set(k, v)
		}
		if method == "tools/call" {
			r.Header.Set("Mcp-Name", "slow")
		}
		w := httptest.NewRecorder()
		front.ServeHTTP(w, r)
		return w
	}
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","arguments":{},` + meta + `}}`
	cancel := func(id string) string {
		return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,` + meta + `}}`
	}
	for _, c := range []struct {
		name, canceller, id, want string
	}{
		{"another principal", "oauth-good-token-of-client-c1", `7`, "finished"},
		// mcp-go matches a cancellation by the id's text: "7" was 7 to it.
		{"another principal naming \"7\"", "oauth-good-token-of-client-c1", `"7"`, "finished"},
		{"the same principal", testToken, `7`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan *httptest.ResponseRecorder, 1)
			go func() { done <- post(testToken, "tools/call", call) }()
			<-started
			if w := post(c.canceller, "notifications/cancelled", cancel(c.id)); w.Code != 202 {
				t.Fatalf("the cancellation: %d %s", w.Code, w.Body)
			}
			w := <-done
			if got := w.Body.String(); c.want == "" && (w.Code != 202 || got != "") {
				t.Errorf("the cancelled call: %d %.200s, want 202 and no answer", w.Code, got)
			} else if !strings.Contains(got, c.want) {
				t.Errorf("the call answered %.200s, want %q", got, c.want)
			}
		})
	}
	if len(front.stateless.by) != 0 {
		t.Errorf("calls left recorded: %v", front.stateless.by)
	}
}

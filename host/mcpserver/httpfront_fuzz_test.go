package mcpserver

import (
	"net/url"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"
)

// deepCall is a tools/call nested deeper than Go's JSON reads.
var deepCall = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"touch","arguments":{"x":` +
	strings.Repeat("[", 10_001) + strings.Repeat("]", 10_001) + `}}}`

// FuzzFront sends arbitrary requests through the HTTP front and the
// mcp-go server behind it: nothing may panic or answer 5xx, and no tool may
// run for a request the front must refuse (wrong Host, Origin or token).
func FuzzFront(f *testing.F) {
	for _, s := range []struct {
		method, path, host, origin, auth, session, body string
	}{
		{"POST", "/mcp", "127.0.0.1:7777", "", "good", "", initBody},
		{"POST", "/mcp", "127.0.0.1:7777", "", "good", "live", touchBody},
		{"POST", "/mcp", "127.0.0.1:7777", "", "good", "live", `{"jsonrpc":"2.0","id":9,"result":{}}`},
		{"POST", "/mcp", "127.0.0.1:7777", "", "good", "live", `{"jsonrpc":"2.0","id":9,"error":{"code":1,"message":"x"}}`},
		{"POST", "/mcp", "127.0.0.1:7777", "", "good", "", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
		{"POST", "/mcp", "127.0.0.1:7777", "", "good", "", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"touch","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
		{"GET", "/mcp", "127.0.0.1:7777", "", "good", "live", ""},
		{"DELETE", "/mcp", "127.0.0.1:7777", "", "good", "live", ""},
		{"POST", "/mcp", "evil.example", "", "good", "", touchBody},
		{"POST", "/mcp", "127.0.0.1:7777", "null", "good", "live", touchBody},
		{"POST", "/mcp", "127.0.0.1:7777", "", "Bearer nope", "live", touchBody},
		{"POST", "/mcp", "127.0.0.1:7777", "", "good", "juju-forged", "{"},
		{"POST", "/mcp?x=%zz", "127.0.0.1:7777", "", "good", "live", "[]"},
		{"POST", "/mcp", "127.0.0.1:7777", "", "good", "live", `[{"jsonrpc":"2.0","id":2,"method":"ping"},` + touchBody + `,{"jsonrpc":"2.0","method":"notifications/x"},7]`},
		{"POST", "/mcp", "127.0.0.1:7777", "", "good", "", `[` + initBody + `]`},
		{"POST", "/mcp", "127.0.0.1:7777", "", "good", "live", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/call","params":{"name":"touch"}}`},
		{"OPTIONS", "/oauth-test", "[::1]:7777", "http://[::1]:7777", "", "", ""},
		{"POST", "/mcp", "127.0.0.1:7777", "", "good", "live", `{"jsonrpc":"2.0","id":3,"method":5}`},
		{"POST", "/mcp", "127.0.0.1:7777", "", "good", "live", `[{"jsonrpc":2,"id":3,"method":"ping"},{"jsonrpc":"2.0","id":4,"method":""},` + deepCall + `]`},
	} {
		f.Add(s.method, s.path, s.host, s.origin, s.auth, s.session, s.body)
	}
	rig := newRig(f, "https://tunnel.example", Limits{MaxSessions: 1 << 20, MaxBody: 1 << 16})
	live := rig.initializeF(f)
	f.Fuzz(func(t *testing.T, method, path, host, origin, auth, session, body string) {
		if _, err := url.ParseRequestURI(path); err != nil || !validMethod(method) || !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " \r\n") {
			return // not a request net/http would parse
		}
		hdr := map[string]string{"Host": host, "Origin": origin}
		switch auth {
		case "good":
			hdr["Authorization"] = "Bearer " + testToken
		default:
			hdr["Authorization"] = auth
		}
		switch session {
		case "live":
			hdr[server.HeaderKeySessionID] = live
		default:
			hdr[server.HeaderKeySessionID] = session
		}
		for k, v := range hdr {
			if strings.ContainsAny(v, "\r\n\x00") {
				return
			}
			hdr[k] = v
		}
		before := rig.touched.Load()
		w := rig.do(method, path, body, hdr)
		if w.Code >= 500 {
			t.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body)
		}
		refused := w.Code == 401 || w.Code == 403
		if refused && rig.touched.Load() != before {
			t.Fatalf("a tool ran for a refused request (%d)", w.Code)
		}
		if session == "live" && method == "DELETE" && w.Code == 200 {
			live = rig.initializeF(t)
		}
	})
}

func validMethod(m string) bool {
	if m == "" {
		return false
	}
	for _, c := range m {
		if !(c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// initializeF is initialize for fuzz targets and tests alike.
func (rig *testRig) initializeF(t testing.TB) string {
	t.Helper()
	w := rig.do("POST", "/mcp", initBody, nil)
	id := w.Header().Get(server.HeaderKeySessionID)
	if w.Code != 200 || id == "" {
		t.Fatalf("initialize: %d %s", w.Code, w.Body)
	}
	return id
}

package mcpserver

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/internal/config"
)

// callRig is juju serve's front over a host of the core catalog, counting
// the POSTs that reach mcp-go's handler.
type callRig struct {
	s     *Server
	front *front
	posts atomic.Int64 // POSTs handed to mcp-go
}

type fixedAddr struct{ net.Listener }

func (fixedAddr) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 7777} }

func newCallRig(t *testing.T, mode config.Mode) *callRig {
	t.Helper()
	home, root := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := host.New(host.Config{
		Roots: []string{root}, Mode: mode, Version: "test",
		Dirs: config.Dirs{Config: filepath.Join(home, "config"), State: filepath.Join(home, "state"), Cache: filepath.Join(home, "cache"), Data: filepath.Join(home, "data")},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	s, err := New(h)
	if err != nil {
		t.Fatal(err)
	}
	rig := &callRig{s: s}
	f, closeSessions := s.httpHandler(HTTPConfig{Listener: fixedAddr{}, Token: testToken})
	t.Cleanup(func() { closeSessions(context.Background()) })
	inner := f.mcp
	f.mcp = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			rig.posts.Add(1)
		}
		inner.ServeHTTP(w, r)
	})
	rig.front = f
	return rig
}

// post sends one message of session sid ("" before initialize).
func (rig *callRig) post(body, sid string, hdr map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "/mcp", strings.NewReader(body))
	r.Host = "127.0.0.1:7777"
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("Authorization", "Bearer "+testToken)
	if sid != "" {
		r.Header.Set(server.HeaderKeySessionID, sid)
		r.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	rig.front.ServeHTTP(w, r)
	return w
}

// open makes a session whose client declares capabilities.
func (rig *callRig) open(t *testing.T, capabilities string) string {
	t.Helper()
	w := rig.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+capabilities+`,"clientInfo":{"name":"rig","version":"1"}}}`, "", nil)
	sid := w.Header().Get(server.HeaderKeySessionID)
	if w.Code != 200 || sid == "" {
		t.Fatalf("initialize: %d %s", w.Code, w.Body)
	}
	if w := rig.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, sid, nil); w.Code != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d %s", w.Code, w.Body)
	}
	return sid
}

// call sends a tools/call and reports whether it reached mcp-go.
func (rig *callRig) call(t *testing.T, body, sid string, hdr map[string]string) (*httptest.ResponseRecorder, bool) {
	t.Helper()
	n := rig.posts.Load()
	w := rig.post(body, sid, hdr)
	return w, rig.posts.Load() != n
}

// A tools/call POST of an established session is served by the front,
// not by mcp-go's POST handler, and its answer is the one mcp-go writes:
// the same status, Content-Type and bytes, the client's id kept as it
// wrote it.
func TestHTTPCallServedByTheFront(t *testing.T) {
	rig := newCallRig(t, config.ModeTrusted)
	sid := rig.open(t, `{}`)
	for _, c := range []struct{ name, body string }{
		{"list_directory", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_directory","arguments":{"path":"."}}}`},
		{"read_file, an id juju swaps", `{"jsonrpc":"2.0","id":"8","method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`},
		{"a refused argument", `{"jsonrpc":"2.0","id":9.50,"method":"tools/call","params":{"name":"read_file","arguments":{"path":7}}}`},
		{"an unknown tool", `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			fast, toMCP := rig.call(t, c.body, sid, nil)
			if toMCP {
				t.Fatal("the call went to mcp-go's POST handler")
			}
			direct := rig.front.direct
			rig.front.direct = nil
			slow, toMCP := rig.call(t, c.body, sid, nil)
			rig.front.direct = direct
			if !toMCP {
				t.Fatal("without the front's path the call did not reach mcp-go")
			}
			if fast.Code != slow.Code || fast.Header().Get("Content-Type") != slow.Header().Get("Content-Type") || fast.Body.String() != slow.Body.String() {
				t.Fatalf("the front's answer differs from mcp-go's:\n got %d %s %q\nwant %d %s %q", fast.Code, fast.Header().Get("Content-Type"), fast.Body,
					slow.Code, slow.Header().Get("Content-Type"), slow.Body)
			}
		})
	}
}

// A call goes to mcp-go whenever mcp-go may have more to send on its POST
// than the answer, or keeps state the front cannot: after the catalog
// changed (its list_changed then comes on the call's event stream), when
// mcp-go's idle sweep has not seen the session for a while, and for what
// mcp-go refuses before the call.
func TestHTTPCallGoesToMCPGoWhenItMustBe(t *testing.T) {
	rig := newCallRig(t, config.ModeTrusted)
	sid := rig.open(t, `{}`)
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`
	if _, toMCP := rig.call(t, call, sid, nil); toMCP {
		t.Fatal("the first call went to mcp-go")
	}

	t.Run("mcp-go has not seen the session", func(t *testing.T) {
		v, _ := rig.s.direct.by.Load(sid)
		v.(*directSession).passed.Store(time.Now().Add(-time.Hour).UnixNano())
		if _, toMCP := rig.call(t, call, sid, nil); !toMCP {
			t.Fatal("a call of a session mcp-go last saw an hour ago did not go to mcp-go")
		}
		if _, toMCP := rig.call(t, call, sid, nil); toMCP {
			t.Fatal("once mcp-go saw the session, its next call still went to mcp-go")
		}
	})
	t.Run("refused by mcp-go", func(t *testing.T) {
		for _, hdr := range []map[string]string{{"Content-Type": "text/plain"}, {"Mcp-Protocol-Version": "1999-01-01"}} {
			w, toMCP := rig.call(t, call, sid, hdr)
			if !toMCP || w.Code != http.StatusBadRequest {
				t.Fatalf("%v: to mcp-go %v, %d %s", hdr, toMCP, w.Code, w.Body)
			}
		}
	})
	t.Run("the catalog changed", func(t *testing.T) {
		tools, _, err := rig.s.catalogTools()
		if err != nil {
			t.Fatal(err)
		}
		rig.s.setTools(tools)
		w, toMCP := rig.call(t, call, sid, nil)
		if !toMCP {
			t.Fatal("a call after the catalog changed did not go to mcp-go")
		}
		if ct := w.Header().Get("Content-Type"); ct != "text/event-stream" || !strings.Contains(w.Body.String(), "notifications/tools/list_changed") {
			t.Fatalf("the call's answer does not carry list_changed: %s %s", ct, w.Body)
		}
		// A session opened since is served by the front again.
		if _, toMCP := rig.call(t, call, rig.open(t, `{}`), nil); toMCP {
			t.Fatal("a call of a session opened after the change went to mcp-go")
		}
	})
}

// A call that may ask the owner in the client goes to mcp-go, which sends
// the question on the POST's event stream: the client takes form
// elicitation and the tool's tier needs approval in the trust mode.
func TestHTTPCallThatMayAskGoesToMCPGo(t *testing.T) {
	rig := newCallRig(t, config.ModeEdit)
	session := func(capabilities string) server.ClientSession {
		v, ok := rig.s.direct.by.Load(rig.open(t, capabilities))
		if !ok {
			t.Fatal("the session is not tracked")
		}
		return v.(*directSession).session
	}
	asks, url, silent := session(`{"elicitation":{}}`), session(`{"elicitation":{"url":{}}}`), session(`{}`)
	for _, c := range []struct {
		session server.ClientSession
		tool    string
		want    bool
	}{
		{asks, "run_command", true},
		{asks, "no_such_tool", true},
		{asks, "write_file", false}, // edit mode: E runs
		{asks, "read_file", false},
		{url, "run_command", false},
		{silent, "run_command", false},
	} {
		if got := rig.s.mayAsk(c.session, c.tool); got != c.want {
			t.Errorf("%s: mayAsk %v, want %v", c.tool, got, c.want)
		}
	}
}

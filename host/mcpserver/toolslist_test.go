package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/internal/config"
)

// catalogServer is the MCP server over a host of the core catalog, its
// session (the one of a context without a client session, as the stdio
// session is to mcp-go's hooks) initialized.
func catalogServer(t *testing.T) *Server {
	t.Helper()
	home := t.TempDir()
	h, err := host.New(host.Config{
		Roots: []string{t.TempDir()}, Mode: config.ModeTrusted, Version: "test",
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
	init := s.mcp.HandleMessage(context.Background(), json.RawMessage(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`))
	if _, ok := init.(mcp.JSONRPCResponse); !ok {
		t.Fatalf("initialize: %#v", init)
	}
	return s
}

// The answer to a tools/list is the one json.Marshal writes of mcp-go's
// answer, byte for byte, whatever its id and protocol; a page that is not
// the whole list, and an error, are left to json.Marshal.
func TestToolsListAnswerIsMarshalled(t *testing.T) {
	s := catalogServer(t)
	if n := len(s.listing().tools); n < 20 {
		t.Fatalf("the core catalog lists %d tools", n)
	}
	modern := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	cursor := base64([]byte("list_directory"))
	for _, c := range []struct {
		name, req string
		taken     bool // by appendToolsList
	}{
		{"number id", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, true},
		{"string id", `{"jsonrpc":"2.0","id":"a\"b<&>\u2028","method":"tools/list","params":{}}`, true},
		{"large id", `{"jsonrpc":"2.0","id":1e300,"method":"tools/list"}`, true},
		{"stateless protocol", `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{` + modern + `}}`, true},
		{"cursor", `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"cursor":"` + cursor + `"}}`, false},
		{"bad cursor", `{"jsonrpc":"2.0","id":10,"method":"tools/list","params":{"cursor":"%%"}}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := s.mcp.HandleMessage(context.Background(), json.RawMessage(c.req))
			want, err := json.Marshal(resp)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := s.appendAnswer(nil, resp)
			if ok != c.taken {
				t.Fatalf("taken %v, want %v: %s", ok, c.taken, want[:min(len(want), 200)])
			}
			if ok && !bytes.Equal(got, want) {
				t.Fatalf("the answer differs from json.Marshal's:\n got %s\nwant %s", got[:min(len(got), 300)], want[:min(len(want), 300)])
			}
		})
	}
}

// The tools array is taken from the listing only when mcp-go lists the
// same tools: a tool changed in mcp-go and not yet in the listing is
// answered as json.Marshal writes it, and once the listing follows, from
// the listing again, changed.
func TestToolsListFollowsTheTools(t *testing.T) {
	s := catalogServer(t)
	req := json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	tools := s.mcp.ListTools()
	var changed []server.ServerTool
	for _, st := range tools {
		if st.Tool.Name == "read_file" {
			st.Tool.Description = "changed"
		}
		changed = append(changed, *st)
	}
	s.mcp.SetTools(changed...)
	resp := s.mcp.HandleMessage(context.Background(), req)
	if _, ok := s.appendAnswer(nil, resp); ok {
		t.Fatal("a list of other tools was answered from the listing")
	}
	s.noteTools()
	resp = s.mcp.HandleMessage(context.Background(), req)
	got, ok := s.appendAnswer(nil, resp)
	want, _ := json.Marshal(resp)
	if !ok || !bytes.Equal(got, want) || !bytes.Contains(got, []byte(`"description":"changed"`)) {
		t.Fatalf("after the listing followed: taken %v, %d bytes against %d", ok, len(got), len(want))
	}
}

// A tools/list served by the stdio loop in a warm process makes a few
// dozen allocations (54 when written), not the 870 of encoding the
// catalog again, each tool marshalled through a map of its fields.
func TestToolsListIsNotEncodedAgain(t *testing.T) {
	s := catalogServer(t)
	sessionMade := make(chan struct{})
	close(sessionMade)
	var out bytes.Buffer
	d := &stdioLoop{
		s: s, w: &answerWriter{w: &out, f: newInflight()}, errLog: log.New(io.Discard, "", 0),
		session: context.Background(), sessionMade: sessionMade, listenEnded: make(chan struct{}),
		warmNow: func() {},
	}
	line := []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}` + "\n")
	head := msgHead{Method: "tools/list", ID: json.RawMessage(`3`)}
	serve := func() {
		out.Reset()
		d.calls.Add(1)
		d.serve(line, head, new(atomic.Bool))
	}
	serve()
	if !bytes.Contains(out.Bytes(), []byte(`"name":"read_file"`)) {
		t.Fatalf("tools/list: %.300s", out.Bytes())
	}
	allocs := testing.AllocsPerRun(20, serve)
	if allocs > 200 {
		t.Fatalf("a tools/list makes %.0f allocations", allocs)
	}
	t.Logf("%.0f allocations a tools/list", allocs)
}

// A tools/list in a stdio batch is answered as a lone one is.
func TestBatchedToolsList(t *testing.T) {
	s := catalogServer(t)
	sessionMade := make(chan struct{})
	close(sessionMade)
	d := &stdioLoop{s: s, w: &answerWriter{w: io.Discard, f: newInflight()}, session: context.Background(), sessionMade: sessionMade, errLog: log.New(io.Discard, "", 0), warmNow: func() {}}
	m := json.RawMessage(`{"jsonrpc":"2.0","id":"b1","method":"tools/list"}`)
	got, ok := d.batchAnswer(m)
	want, _ := json.Marshal(s.mcp.HandleMessage(context.Background(), m))
	if !ok || !bytes.Equal(got, want) || !bytes.Contains(got, []byte(`"id":"b1","result":{"tools":[`)) {
		t.Fatalf("batched tools/list: %v %.200s", ok, got)
	}
}

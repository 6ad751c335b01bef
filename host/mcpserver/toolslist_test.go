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
	got, ok := d.batchAnswer(m, nil)
	want, _ := json.Marshal(s.mcp.HandleMessage(context.Background(), m))
	if !ok || !bytes.Equal(got, want) || !bytes.Contains(got, []byte(`"id":"b1","result":{"tools":[`)) {
		t.Fatalf("batched tools/list: %v %.200s", ok, got)
	}
}

// The tools array is written as json.Marshal writes it, whatever the
// tools hold: schemas with spaces between their tokens or characters
// escaped for HTML, titles and hints or none, and fields only
// json.Marshal writes (then it writes the whole list).
func TestToolsArrayIsMarshalled(t *testing.T) {
	yes, no := true, false
	base := mcp.Tool{Name: "a", Description: "reads <a> & \u2028 \xff", RawInputSchema: json.RawMessage(`{"type":"object"}`)}
	variants := map[string]func(*mcp.Tool){
		"plain": func(*mcp.Tool) {},
		"spaced schema": func(t *mcp.Tool) {
			t.RawInputSchema = json.RawMessage("{ \"type\" :\n\"object\", \"description\": \"a b\\\" \"\t}")
		},
		"html in schema": func(t *mcp.Tool) {
			t.RawInputSchema = json.RawMessage(`{"description":"<x> & \"<\" \u003c"}`)
		},
		"line separator in schema": func(t *mcp.Tool) {
			t.RawInputSchema = json.RawMessage("{\"description\":\"a\u2028b\u2029\"}")
		},
		"output schema": func(t *mcp.Tool) { t.RawOutputSchema = json.RawMessage(`{"type":"object", "anyOf":[]}`) },
		"title and hints": func(t *mcp.Tool) {
			t.Title = "T<"
			t.Annotations = mcp.ToolAnnotation{Title: "A", ReadOnlyHint: &yes, OpenWorldHint: &no}
		},
		"one hint":       func(t *mcp.Tool) { t.Annotations.IdempotentHint = &no },
		"no description": func(t *mcp.Tool) { t.Description = "" },
		"meta":           func(t *mcp.Tool) { t.Meta = mcp.NewMetaFromMap(map[string]any{"k": "v"}) },
		"deferred":       func(t *mcp.Tool) { t.DeferLoading = true },
		"structured": func(t *mcp.Tool) {
			t.RawInputSchema = nil
			t.InputSchema = mcp.ToolInputSchema{Type: "object"}
		},
		"broken schema": func(t *mcp.Tool) { t.RawOutputSchema = json.RawMessage(`{"type":`) },
		"empty schema":  func(t *mcp.Tool) { t.RawInputSchema = json.RawMessage{} },
	}
	for name, change := range variants {
		t.Run(name, func(t *testing.T) {
			tool := base
			change(&tool)
			tools := []mcp.Tool{base, tool}
			want, wantErr := json.Marshal(tools)
			l := &toolsList{tools: tools}
			got := l.encoded()
			if wantErr != nil {
				if got != nil {
					t.Fatalf("json.Marshal fails (%v), the listing wrote %s", wantErr, got)
				}
				return
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("the tools array differs from json.Marshal's:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// The core catalog's tools array is written without encoding/json's
// reflection: a few allocations, where json.Marshal made about 900 (each
// tool through a map of its fields) and took 2-9 ms, beside the answer to
// initialize, on a 2-core machine.
func TestToolsArrayIsWrittenDirectly(t *testing.T) {
	s := catalogServer(t)
	tools := s.listing().tools
	want, err := json.Marshal(tools)
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	allocs := testing.AllocsPerRun(5, func() { got = (&toolsList{tools: tools}).encoded() })
	if !bytes.Equal(got, want) {
		t.Fatalf("the catalog's tools array differs from json.Marshal's (%d bytes against %d)", len(got), len(want))
	}
	if allocs > float64(len(tools)) {
		t.Fatalf("encoding the %d tools made %.0f allocations", len(tools), allocs)
	}
	t.Logf("%.0f allocations for %d tools, %d bytes", allocs, len(tools), len(got))
}

// A schema is written as json.Marshal writes a json.RawMessage, or
// refused where json.Marshal fails.
func FuzzRawSchemaIsMarshalled(f *testing.F) {
	for _, s := range []string{`{"type":"object"}`, "{ \"a\" :\t[1, 2]\n}", `{"d":"<\"&\u003e"}`, "\"\u2028\"", `{"type":`, ``, `"\\"`, `[1,"a b", {}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		want, err := json.Marshal(json.RawMessage(raw))
		got, ok := appendRawJSON([]byte("x"), raw)
		if ok != (err == nil) {
			t.Fatalf("%q: written %v, json.Marshal's error %v", raw, ok, err)
		}
		if ok && string(got) != "x"+string(want) {
			t.Fatalf("%q: got %q, want %q", raw, got, want)
		}
	})
}

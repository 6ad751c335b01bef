package test

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"
)

// Calls refused before any plugin runs — arguments that do not fit the
// tool's schema, a tool juju does not have — are in juju audit too.
func TestAuditRecordsRefusedCalls(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "x\n"})
	home := t.TempDir()
	s := startHome(t, home, root)
	s.ok("read_file", map[string]any{"path": "a.txt"})
	res, err := s.callErr("read_file", map[string]any{"path": 42})
	if err == nil && !res.IsError {
		t.Fatalf("read_file with a number for path succeeded: %s", text(res))
	}
	if _, err := s.callErr("no_such_tool", map[string]any{"x": 1}); err == nil {
		t.Fatal("an unknown tool answered")
	}
	got := auditJSON(t, home, root)
	if len(got) != 3 {
		t.Fatalf("%d audit records, want 3: %+v", len(got), got)
	}
	if g := got[1]; g.Tool != "read_file" || g.Plugin != "core" || g.Tier != "R" || g.Outcome != "INVALID_ARGUMENT" || !strings.Contains(g.Args, "42") || g.Client != "juju-e2e" {
		t.Errorf("the refused arguments: %+v", g)
	}
	if g := got[2]; g.Tool != "no_such_tool" || g.Outcome != "NOT_FOUND" || g.CallID == "" {
		t.Errorf("the unknown tool: %+v", g)
	}
	// The text form shows them as well.
	if out := juju(t, home, root, "audit"); !strings.Contains(out, "no_such_tool") || !strings.Contains(out, "INVALID_ARGUMENT") {
		t.Errorf("juju audit:\n%s", out)
	}
}

// A tool name is the client's to choose: juju audit shows an unknown one
// escaped, so terminal controls, carriage returns, newlines and tabs in it
// can neither wipe nor forge a row of the owner's terminal.
func TestAuditShowsUnknownToolNamesEscaped(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "x\n"})
	home := t.TempDir()
	s := startHome(t, home, root)
	forged := "\x1b[1A\x1b[2K\rread_file\tok\t0.4\n2026-12-06 01:50:00\t0hotaaaaaaaaaaa\tclaude-code\tlist_directory"
	if _, err := s.callErr(forged, map[string]any{}); err == nil {
		t.Fatal("an unknown tool answered")
	}
	out := juju(t, home, root, "audit")
	if strings.ContainsAny(out, "\x1b\r") || strings.Count(out, "\n") != 2 {
		t.Fatalf("juju audit printed the name raw:\n%q", out)
	}
	if !strings.Contains(out, `\x1b[1A\x1b[2K\rread_file\tok\t0.4\n2026-12-06`) {
		t.Errorf("juju audit does not show the name escaped:\n%s", out)
	}
}

// namelessCalls are tools/call requests whose params name no tool as a
// string, which mcp-go cannot decode, each with the tool the audit
// records.
var namelessCalls = []struct{ params, tool string }{
	{`{"name":42,"arguments":{"path":"a.txt"}}`, "42"},
	{`{"name":{"a":"\u001b[2K"},"arguments":{}}`, `{"a":"\u001b[2K"}`},
	{`{"name":["read_file"]}`, `["read_file"]`},
	{`{"name":true}`, "true"},
	{`"read_file"`, ""},
}

// A tools/call whose params name no tool as a string is answered with a
// JSON-RPC invalid-params error saying what params.name must be, as a
// call to an unknown tool is, and is in juju audit like every refused
// call, over stdio and HTTP, alone and in a batch; mcp-go answered it
// as an unparsable request and nothing recorded it.
func TestAuditRecordsCallsWithoutAToolName(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "x\n"})
	check := func(t *testing.T, answers map[float64]map[string]any, home string) {
		t.Helper()
		for i := range namelessCalls {
			a := answers[float64(i+2)]
			e := rpcError(t, a)
			if e["code"] != float64(-32602) || !strings.Contains(e["message"].(string), "must be") {
				t.Errorf("call %d: %s", i, mustJSON(a))
			}
		}
		got := map[string]bool{}
		for _, g := range auditJSON(t, home, root) {
			if g.Outcome == "INVALID_ARGUMENT" && g.Plugin == "" {
				got[g.Tool] = true
			}
		}
		for _, c := range namelessCalls {
			if !got[c.tool] {
				t.Errorf("the call of params %s is not audited with the tool %q: %v", c.params, c.tool, got)
			}
		}
	}
	line := func(i int, params string) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(i+2) + `,"method":"tools/call","params":` + params + `}`
	}
	t.Run("stdio", func(t *testing.T) {
		r := startRaw(t, root)
		if init := r.send(t, strings.Replace(initializeLine, "2025-06-18", "2025-03-26", 1)); init["result"] == nil { // with batches
			t.Fatalf("initialize: %s", mustJSON(init))
		}
		io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		answers := map[float64]map[string]any{}
		for i, c := range namelessCalls[:3] {
			a := r.send(t, line(i, c.params))
			answers[a["id"].(float64)] = a
		}
		var batch []string
		for i, c := range namelessCalls[3:] {
			batch = append(batch, line(i+3, c.params))
		}
		io.WriteString(r.in, "["+strings.Join(batch, ",")+"]\n")
		if !r.out.Scan() {
			t.Fatal("no answer to the batch")
		}
		var msgs []map[string]any
		json.Unmarshal(r.out.Bytes(), &msgs)
		for _, a := range msgs {
			answers[a["id"].(float64)] = a
		}
		check(t, answers, r.home)
	})
	t.Run("http", func(t *testing.T) {
		srv := startServe(t, root)
		sid := srv.initSession(t, srv.bearer())
		hdr := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-03-26"})
		answers := map[float64]map[string]any{}
		for i, c := range namelessCalls[:3] {
			res, body := srv.raw(t, "POST", "/mcp", line(i, c.params), hdr)
			var a map[string]any
			if err := json.Unmarshal([]byte(body), &a); err != nil || res.StatusCode != 200 {
				t.Fatalf("call %d: %d %s", i, res.StatusCode, body)
			}
			answers[a["id"].(float64)] = a
		}
		var batch []string
		for i, c := range namelessCalls[3:] {
			batch = append(batch, line(i+3, c.params))
		}
		sseMessages(t, postBatch(t, srv, "["+strings.Join(batch, ",")+"]", hdr), func(m map[string]any) bool {
			answers[m["id"].(float64)] = m
			return true
		})
		check(t, answers, srv.home)
	})
}

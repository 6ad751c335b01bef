package test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// sseMessages reads the JSON-RPC messages of an SSE answer, handing each to
// each as it comes, until the stream ends or each returns false.
func sseMessages(t *testing.T, res *http.Response, each func(m map[string]any) bool) {
	t.Helper()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatalf("an event that is not JSON: %q", data)
		}
		if !each(m) {
			return
		}
	}
}

// postBatch posts body to srv's /mcp with hdr and returns the answer,
// whose body the caller reads.
func postBatch(t *testing.T, srv *server, body string, hdr map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", srv.url, strings.NewReader(body))
	for k, v := range merge(map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}, hdr) {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// TestServeBatches checks JSON-RPC batches over HTTP (MCP 2025-03-26):
// the answers to a batch's requests come as SSE events in its order,
// notifications get none, a batch of notifications is a 202, and a tool
// call in a batch that asks the client for approval asks it on the same
// stream and runs once the client answers in a POST of its own.
func TestServeBatches(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	srv := startServe(t, root, "--mode", "trusted")
	sid := srv.initSession(t, srv.bearer())
	sess := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-03-26"})

	res := postBatch(t, srv, `[{"jsonrpc":"2.0","id":2,"method":"ping"},`+
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}},`+
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}},`+
		`{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"write_file","arguments":{"path":"b.txt","content":"b\n"}}},`+
		`{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}]`, sess)
	if ct := res.Header.Get("Content-Type"); res.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("a batch: %d %s", res.StatusCode, ct)
	}
	var got []string
	sseMessages(t, res, func(m map[string]any) bool {
		got = append(got, fmt.Sprint(m["id"]))
		if m["id"] == float64(3) && !strings.Contains(string(mustJSON(m)), "hello") {
			t.Errorf("read_file in a batch: %s", mustJSON(m))
		}
		if m["id"] == "w" && m["result"].(map[string]any)["isError"] == true {
			t.Errorf("write_file in a batch: %s", mustJSON(m))
		}
		return true
	})
	if strings.Join(got, " ") != "2 3 w <nil>" {
		t.Errorf("answers by id: %q, want 2 3 w <nil>", got)
	}
	if !fileExists(root, "b.txt") {
		t.Error("the write in the batch did not land")
	}
	if res := postBatch(t, srv, `[{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2}}]`, sess); res.StatusCode != 202 {
		t.Errorf("a batch of notifications: %d", res.StatusCode)
	}
	for body, want := range map[string]int{`[]`: 200, `[1,`: 400} {
		res, text := srv.raw(t, "POST", "/mcp", body, sess)
		if res.StatusCode != want || !strings.Contains(text, `"id":null`) {
			t.Errorf("%s: %d %s", body, res.StatusCode, text)
		}
	}
	if res, _ := srv.raw(t, "POST", "/mcp", `[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, srv.bearer()); res.StatusCode != 400 {
		t.Errorf("a batch without a session: %d, want 400", res.StatusCode)
	}

	// An approval asked inside a batch.
	home := gateHome(t, 10*time.Second)
	gated := startServeHome(t, home, root, "--mode", "inspect")
	res0, body := gated.raw(t, "POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{"elicitation":{}},"clientInfo":{"name":"batcher","version":"1"}}}`, gated.bearer())
	gsid := res0.Header.Get("Mcp-Session-Id")
	if res0.StatusCode != 200 || gsid == "" {
		t.Fatalf("initialize: %d %s", res0.StatusCode, body)
	}
	gsess := merge(gated.bearer(), map[string]string{"Mcp-Session-Id": gsid, "Mcp-Protocol-Version": "2025-03-26"})
	gated.raw(t, "POST", "/mcp", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, gsess)
	res = postBatch(t, gated, `[{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"test_gated_edit","arguments":{"text":"batched-approval"}}}]`, gsess)
	asked := false
	sseMessages(t, res, func(m map[string]any) bool {
		if m["method"] == "elicitation/create" {
			asked = true
			answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"action":"accept","content":{"approve":true}}}`, mustJSON(m["id"]))
			if r, text := gated.raw(t, "POST", "/mcp", answer, gsess); r.StatusCode >= 300 {
				t.Fatalf("the approval's answer: %d %s", r.StatusCode, text)
			}
			return true
		}
		if m["id"] != float64(5) || m["result"].(map[string]any)["isError"] == true {
			t.Fatalf("the gated call in a batch: %s", mustJSON(m))
		}
		return false
	})
	if !asked || !gated.logged(": batched-approval") {
		t.Fatalf("asked %v; the approved call did not run:\n%s", asked, gated.log)
	}
}

// TestServeBatchWithUnsupportedVersion: a batch whose Mcp-Protocol-Version
// header names a version juju does not speak is refused whole with 400, as
// the same message sent alone is (MCP: 400 for an unsupported version), and
// nothing of it runs; each of its messages had been answered an internal
// error of id null, which no client can match to its request.
func TestServeBatchWithUnsupportedVersion(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted", "--sandbox", "off")
	sid := srv.initSession(t, srv.bearer())
	for _, v := range []string{"1999-01-01", "2025-03-27", "2025-3-26"} {
		batch := `[{"jsonrpc":"2.0","id":2,"method":"ping"},` + writeCall("b.txt", false) + `]`
		res, body := srv.raw(t, "POST", "/mcp", batch, merge(srv.bearer(), map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": v}))
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, "unsupported protocol version") {
			t.Errorf("a batch with Mcp-Protocol-Version %q: %d %.300s, want 400 naming the version", v, res.StatusCode, body)
		}
		mustNotExist(t, root, "b.txt")
	}
	// The same batch with a version juju speaks is served.
	res := postBatch(t, srv, `[`+writeCall("b.txt", false)+`]`, merge(srv.bearer(), map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-03-26"}))
	answered := false
	sseMessages(t, res, func(m map[string]any) bool {
		answered = answered || m["id"] == float64(7) && m["result"] != nil
		return true
	})
	if _, err := statIn(root, "b.txt"); err != nil || !answered {
		t.Fatalf("the batch with a version juju speaks: answered %v, %v", answered, err)
	}
}

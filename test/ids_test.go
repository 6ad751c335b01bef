package test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// oddIDs are request ids mcp-go would not write back as they came: past
// 2^53, with a fraction or an exponent, a string with an escape.
var oddIDs = []string{`9007199254740993`, `12345678901234567890123`, `2.50`, `1e3`, `-1E+2`, `"\u0061"`, `"\u001fjuju:1"`}

// A response names the id of its request as the client wrote it, byte for
// byte, answer or error, alone or in a batch; mcp-go reads an id as a
// float64 and wrote 9007199254740993 back as 9007199254740992, and 1e3 as
// 1000. A cancellation naming such an id stops that call and no other,
// even beside a call whose id reads as the same float64.
func TestIDsComeBackAsWritten(t *testing.T) {
	r := startRaw(t, workspace(t, map[string]string{"a.txt": "alpha\n"}), "--mode", "trusted", "--sandbox", "off")
	// 2025-03-26, the protocol with batches.
	if init := r.send(t, strings.Replace(initializeLine, "2025-06-18", "2025-03-26", 1)); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	answerID := func(what string) string {
		t.Helper()
		r.recv(t, what, 20*time.Second)
		line := r.out.Text()
		const prefix = `{"jsonrpc":"2.0","id":`
		if !strings.HasPrefix(line, prefix) {
			t.Fatalf("answer to %s: %.200s", what, line)
		}
		rest := line[len(prefix):]
		return rest[:strings.Index(rest, `,"`)]
	}
	for _, id := range oddIDs {
		for _, req := range []string{
			`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`,
			`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":7}}`,
			`{"jsonrpc":"2.0","id":` + id + `,"method":"no/such/method"}`,
			`{"jsonrpc":"2.0","id":` + id + `,"method":"ping","result":{}}`,
		} {
			io.WriteString(r.in, req+"\n")
			if got := answerID(req); got != id {
				t.Errorf("%s was answered with the id %s", req, got)
			}
		}
		io.WriteString(r.in, `[{"jsonrpc":"2.0","id":`+id+`,"method":"ping"},{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}]`+"\n")
		if !r.out.Scan() {
			t.Fatal("no answer to a batch")
		}
		if got := r.out.Text(); strings.Count(got, `"id":`+id+`,`) != 2 {
			t.Errorf("a batch of id %s: %.300s", id, got)
		}
	}

	// Two calls whose ids read as one float64; the first is cancelled.
	const first, second = "sleep 29.61", "sleep 29.63"
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"`+first+`"}}}`+"\n")
	waitFor(t, "the first command to start", func() bool { return running(first) })
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":9007199254740992,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"`+second+`"}}}`+"\n")
	waitFor(t, "the second command to start", func() bool { return running(second) })
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9007199254740993}}`+"\n")
	waitFor(t, "the first command to be killed", func() bool { return !running(first) })
	if !running(second) {
		t.Fatal("cancelling 9007199254740993 stopped the call 9007199254740992 too")
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9007199254740992}}`+"\n")
	waitFor(t, "the second command to be killed", func() bool { return !running(second) })
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`+"\n")
	if got := answerID("the ping after the cancellations"); got != "1e3" {
		t.Fatalf("the next answer is of id %s: a cancelled call was answered", got)
	}
}

// Over HTTP too, an answer names its request's id as the client wrote it,
// alone, in a batch or refused by juju's front, and a cancellation naming
// such an id stops that call and not one whose id reads as the same
// float64.
func TestServeIDsComeBackAsWritten(t *testing.T) {
	srv := startServe(t, workspace(t, map[string]string{"a.txt": "alpha\n"}), "--mode", "trusted", "--sandbox", "off")
	sid := srv.initSession(t, srv.bearer())
	hdr := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-03-26"})
	for _, id := range oddIDs {
		for _, req := range []string{
			`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`,
			`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":7}}`,
			`{"jsonrpc":"2.0","id":` + id + `,"method":"ping","result":{}}`,
		} {
			res, body := srv.raw(t, "POST", "/mcp", req, hdr)
			if !strings.Contains(body, `{"jsonrpc":"2.0","id":`+id+`,"`) {
				t.Errorf("%s was answered %d %.200s", req, res.StatusCode, body)
			}
		}
		res := postBatch(t, srv, `[{"jsonrpc":"2.0","id":`+id+`,"method":"ping"},{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}]`, hdr)
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if strings.Count(string(b), `data: {"jsonrpc":"2.0","id":`+id+`,"`) != 2 {
			t.Errorf("a batch of id %s: %.300s", id, b)
		}
	}

	post := func(body string) {
		req, _ := http.NewRequest("POST", srv.url, strings.NewReader(body))
		for k, v := range merge(map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}, hdr) {
			req.Header.Set(k, v)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
		defer cancel()
		if res, err := http.DefaultClient.Do(req.WithContext(ctx)); err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	}
	const first, second = "sleep 29.71", "sleep 29.73"
	go post(`{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"` + first + `"}}}`)
	waitFor(t, "the first command to start", func() bool { return running(first) })
	go post(`{"jsonrpc":"2.0","id":9007199254740992,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"` + second + `"}}}`)
	waitFor(t, "the second command to start", func() bool { return running(second) })
	post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9007199254740993}}`)
	waitFor(t, "the first command to be killed", func() bool { return !running(first) })
	if !running(second) {
		t.Fatal("cancelling 9007199254740993 stopped the call 9007199254740992 too")
	}
	post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9007199254740992}}`)
	waitFor(t, "the second command to be killed", func() bool { return !running(second) })
}

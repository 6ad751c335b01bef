package test

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// TestCancelledInABatchIsNotAnswered: over stdio, a tool call of a batch
// that the client cancels is stopped and left out of the batch's answer,
// as a lone call's answer is not sent (MCP: a receiver does not answer a
// cancelled request); a batch whose every request was cancelled gets no
// answer at all.
func TestCancelledInABatchIsNotAnswered(t *testing.T) {
	r := startRaw(t, workspace(t, map[string]string{"a.txt": "alpha\n"}), "--mode", "trusted", "--sandbox", "off")
	if init := r.send(t, strings.Replace(initializeLine, "2025-06-18", "2025-03-26", 1)); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	call := func(id, marker string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"` + marker + `","timeoutMs":60000}}}`
	}
	cancel := func(id string) string {
		return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"the user stopped it"}}` + "\n"
	}

	const first = "sleep 29.71"
	io.WriteString(r.in, `[`+call(`"a"`, first)+`,{"jsonrpc":"2.0","id":"b","method":"ping"}]`+"\n")
	waitFor(t, "the batched command to start", func() bool { return running(first) })
	io.WriteString(r.in, cancel(`"a"`))
	r.line(t, "the batch", 30*time.Second)
	var got []map[string]any
	if err := json.Unmarshal(r.out.Bytes(), &got); err != nil || len(got) != 1 || got[0]["id"] != "b" {
		t.Fatalf("the batch whose call was cancelled was answered %.300s, want only the ping's answer", r.out.Text())
	}
	waitFor(t, "the cancelled command to be killed", func() bool { return !running(first) })

	// A batch of one call, cancelled: nothing answers it, and the next
	// answer is the ping's that follows.
	const second = "sleep 29.73"
	io.WriteString(r.in, `[`+call(`7`, second)+`]`+"\n")
	waitFor(t, "the second batched command to start", func() bool { return running(second) })
	io.WriteString(r.in, cancel(`7`))
	waitFor(t, "the second cancelled command to be killed", func() bool { return !running(second) })
	if m := r.send(t, `{"jsonrpc":"2.0","id":"p","method":"ping"}`); m["id"] != "p" {
		t.Fatalf("after a batch whose one call was cancelled, the next answer is %s, want the ping's", mustJSON(m))
	}
}

// TestBatchRequestCancelledBeforeItsTurn: over stdio, a request of a batch
// that the client cancels while an earlier one of the batch runs is never
// served, and the batch's answer leaves it out. A batch is served one
// request after another, and a cancellation that came before a request's
// turn found nothing to cancel: the request ran when its turn came (its
// command ran, its write landed) and was answered.
func TestBatchRequestCancelledBeforeItsTurn(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	r := startRaw(t, root, "--mode", "trusted", "--sandbox", "off")
	if init := r.send(t, strings.Replace(initializeLine, "2025-06-18", "2025-03-26", 1)); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	const first = "sleep 29.77"
	io.WriteString(r.in, `[`+
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"`+first+`","timeoutMs":60000}}},`+
		`{"jsonrpc":"2.0","id":"six","method":"tools/call","params":{"name":"run_command","arguments":{"command":"touch second.txt"}}},`+
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"third.txt","content":"x\n"}}},`+
		`{"jsonrpc":"2.0","id":7,"method":"ping"}]`+"\n")
	waitFor(t, "the batch's first command to start", func() bool { return running(first) })
	for _, id := range []string{`"six"`, `6`, `5`} {
		io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`,"reason":"user"}}`+"\n")
	}
	r.line(t, "the batch", 30*time.Second)
	var got []map[string]any
	if err := json.Unmarshal(r.out.Bytes(), &got); err != nil || len(got) != 1 || got[0]["id"] != float64(7) {
		t.Errorf("the batch whose calls were cancelled was answered %.600s, want only the ping's answer", r.out.Text())
	}
	mustNotExist(t, root, "second.txt")
	mustNotExist(t, root, "third.txt")
	if m := r.send(t, `{"jsonrpc":"2.0","id":"p","method":"ping"}`); m["id"] != "p" {
		t.Fatalf("after the batch, the next answer is %s, want the ping's", mustJSON(m))
	}
}

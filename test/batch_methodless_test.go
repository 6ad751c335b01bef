package test

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// TestMethodlessRequestInABatchIsAnsweredInIt: over stdio, a request of a
// batch whose method is "" or null is answered in the batch's array, by its
// id, like every other request of it (JSON-RPC 2.0, section 6); juju had
// handed it on to mcp-go as if it were a response, and mcp-go answered it
// -32601 on a line of its own, outside the batch's answer.
func TestMethodlessRequestInABatchIsAnsweredInIt(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	r := startRaw(t, root, "--mode", "trusted")
	if init := r.send(t, strings.Replace(initializeLine, "2025-06-18", "2025-03-26", 1)); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(r.in, `[{"jsonrpc":"2.0","id":1,"method":""},{"jsonrpc":"2.0","id":"n","method":null},`+
		`{"jsonrpc":"2.0","id":{"a":1},"method":""},{"jsonrpc":"2.0","id":4,"method":"ping"}]`+"\n")
	// A ping after the batch: its answer comes after the batch's.
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":"after","method":"ping"}`+"\n")
	var lines []string
	for len(lines) < 2 {
		done := make(chan bool, 1)
		go func() { done <- r.out.Scan() }()
		select {
		case ok := <-done:
			if !ok {
				t.Fatalf("stdout closed after %q", lines)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("no more answers after %q", lines)
		}
		lines = append(lines, r.out.Text())
	}
	var batch []map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &batch); err != nil {
		t.Fatalf("the first line is not the batch's answer: %q (then %q)", lines[0], lines[1])
	}
	want := []struct {
		id   any
		code float64
	}{{1.0, -32601}, {"n", -32601}, {nil, -32600}, {4.0, 0}}
	if len(batch) != len(want) {
		t.Fatalf("the batch of 4 requests was answered %s, then %s", lines[0], lines[1])
	}
	for i, w := range want {
		e, _ := batch[i]["error"].(map[string]any)
		code, _ := e["code"].(float64)
		if batch[i]["id"] != w.id || code != w.code {
			t.Errorf("answer %d: %s, want id %v and code %v", i, mustJSON(batch[i]), w.id, w.code)
		}
	}
	var after map[string]any
	if json.Unmarshal([]byte(lines[1]), &after) != nil || after["id"] != "after" {
		t.Errorf("after the batch's answer: %q, want the ping's answer alone", lines[1])
	}
}

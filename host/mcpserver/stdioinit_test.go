package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"strings"
	"testing"
	"time"
)

// initialize is answered by the stdio loop itself, as mcp-go answers it,
// without crossing the pipe to mcp-go's stdio server: handed on, it
// crossed three goroutines and was decoded five times more, at the start
// of a process, before the answer a client waits for first.
func TestStdioLoopAnswersInitialize(t *testing.T) {
	s := catalogServer(t)
	sessionMade := make(chan struct{})
	close(sessionMade)
	req := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	want, err := json.Marshal(s.mcp.HandleMessage(context.Background(), json.RawMessage(req)))
	if err != nil {
		t.Fatal(err)
	}
	s.hs.forget("") // that answer initialized the session of context.Background, the loop's below
	f := newInflight()
	var out bytes.Buffer
	fromLoop, fwd := io.Pipe()
	forwarded := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(fromLoop); forwarded <- b }()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d := &stdioLoop{
		s: s, w: &answerWriter{w: &out, f: f}, fwd: fwd, errLog: log.New(io.Discard, "", 0),
		session: context.Background(), sessionMade: sessionMade, listenEnded: make(chan struct{}),
		slots: make(chan struct{}, maxStdioCalls), ended: make(chan error, 1), warmNow: func() {},
	}
	d.l = newLineReader(ctx, strings.NewReader(req+"\n"), f, d.tooLarge)
	go d.read()
	select {
	case <-d.ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the loop still waits for an answer to initialize")
	}
	fwd.Close()
	if b := <-forwarded; len(b) > 0 {
		t.Errorf("initialize went on to mcp-go's stdio server: %s", b)
	}
	if got := out.String(); got != string(want)+"\n" {
		t.Fatalf("the answer to initialize:\n got %s\nwant %s", got, want)
	}
}

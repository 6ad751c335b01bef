package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// scripted is the server's end of an rpcConn under test: it reads what
// juju sends and writes what the test says.
type scripted struct {
	t    *testing.T
	in   *bufio.Reader  // what juju wrote
	out  *io.PipeWriter // what juju reads
	conn *rpcConn

	mu   sync.Mutex
	seen []incoming // what the handler was given
}

func newScripted(t *testing.T) *scripted {
	t.Helper()
	toServer, fromJuju := io.Pipe()
	fromServer, toJuju := io.Pipe()
	s := &scripted{t: t, in: bufio.NewReader(toServer), out: toJuju}
	s.conn = newRPCConn(fromServer, fromJuju, func(in *incoming) (any, *rpcError) {
		s.mu.Lock()
		s.seen = append(s.seen, *in)
		s.mu.Unlock()
		switch in.method {
		case "workspace/configuration":
			return []any{nil}, nil
		case "window/showMessage":
			return nil, nil
		}
		return nil, &rpcError{Code: codeMethodNotFound, Message: "no " + in.method}
	})
	t.Cleanup(func() { s.conn.Close(); toServer.Close(); toJuju.Close() })
	return s
}

// next reads the next message juju sent.
func (s *scripted) next() map[string]any {
	s.t.Helper()
	body, err := readMessage(s.in, nil)
	if err != nil {
		s.t.Fatalf("reading what juju sent: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		s.t.Fatalf("juju sent %q: %v", body, err)
	}
	return m
}

// send writes a framed message to juju.
func (s *scripted) send(body string) {
	fmt.Fprintf(s.out, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

// Answers find their calls whatever their order; the server's requests are
// answered with their own ids, its notifications are not; an error answer
// is an *rpcError.
func TestRPCConnExchanges(t *testing.T) {
	s := newScripted(t)
	ctx := context.Background()
	type out struct {
		res json.RawMessage
		err error
	}
	first, second := make(chan out, 1), make(chan out, 1)
	go func() {
		var r json.RawMessage
		err := s.conn.Call(ctx, "textDocument/definition", map[string]int{"n": 1}, &r)
		first <- out{r, err}
	}()
	a := s.next()
	go func() {
		var r json.RawMessage
		err := s.conn.Call(ctx, "textDocument/references", nil, &r)
		second <- out{r, err}
	}()
	b := s.next()
	if a["method"] != "textDocument/definition" || a["jsonrpc"] != "2.0" || a["params"].(map[string]any)["n"] != 1.0 {
		t.Fatalf("first request: %v", a)
	}
	if _, has := b["params"]; has {
		t.Fatalf("a request without params sent some: %v", b)
	}
	// Answered in the other order, with a notification and a request of the
	// server's between them.
	s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"error":{"code":-32802,"message":"cancelled"}}`, b["id"]))
	s.send(`{"jsonrpc":"2.0","method":"window/showMessage","params":{"type":3,"message":"hello"}}`)
	s.send(`{"jsonrpc":"2.0","id":"s-1","method":"workspace/configuration","params":{"items":[{}]}}`)
	if r := s.next(); r["id"] != "s-1" || fmt.Sprint(r["result"]) != "[<nil>]" {
		t.Fatalf("reply to the server's request: %v", r)
	}
	s.send(`{"jsonrpc":"2.0","id":7,"method":"workspace/unknown"}`)
	if r := s.next(); r["id"] != 7.0 || r["error"].(map[string]any)["code"] != float64(codeMethodNotFound) {
		t.Fatalf("reply to an unknown request: %v", r)
	}
	s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":[{"uri":"file:///a.go"}]}`, a["id"]))
	got := <-first
	if got.err != nil || string(got.res) != `[{"uri":"file:///a.go"}]` {
		t.Fatalf("first call: %s, %v", got.res, got.err)
	}
	got = <-second
	var rpc *rpcError
	if !errors.As(got.err, &rpc) || rpc.Code != codeServerCancelled || rpc.Message != "cancelled" {
		t.Fatalf("second call: %v", got.err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seen) != 3 || !s.seen[0].notification() || s.seen[1].notification() || string(s.seen[1].id) != `"s-1"` || string(s.seen[1].params) != `{"items":[{}]}` {
		t.Fatalf("the handler saw %+v", s.seen)
	}
}

// A call given up on (its context cancelled, or timed out) returns, and
// the server is sent $/cancelRequest with that call's id, so it stops
// computing the answer; the late answer goes nowhere and leaves no pending
// entry behind, and the next call gets its own answer; a notification is
// sent without an id.
func TestRPCConnCancelledCall(t *testing.T) {
	for _, name := range []string{"cancelled", "timed out"} {
		t.Run(name, func(t *testing.T) {
			s := newScripted(t)
			ctx, cancel := context.WithCancel(context.Background())
			want := context.Canceled
			if name == "timed out" {
				ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
				want = context.DeadlineExceeded
			}
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- s.conn.Call(ctx, "textDocument/references", nil, nil) }()
			req := s.next()
			if want == context.Canceled {
				cancel()
			} // else the deadline passes
			// The cancel is written before the call returns, so before the
			// notification sent once it has returned (the pipe holds nothing:
			// the call's own write waits for this read).
			returned := make(chan error, 1)
			go func() {
				err := <-done
				returned <- err
				s.conn.Notify(context.Background(), "exit", nil)
			}()
			if c := s.next(); c["method"] != "$/cancelRequest" || c["id"] != nil || fmt.Sprint(c["params"]) != fmt.Sprintf("map[id:%v]", req["id"]) {
				t.Fatalf("after the call %v was given up on, juju sent %v", req["id"], c)
			}
			if err := <-returned; !errors.Is(err, want) {
				t.Fatalf("call given up on: %v", err)
			}
			if n := s.next(); n["method"] != "exit" || n["id"] != nil {
				t.Fatalf("notification: %v", n)
			}
			s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"error":{"code":-32800,"message":"cancelled"}}`, req["id"]))
			var r int
			go func() { done <- s.conn.Call(context.Background(), "fast", nil, &r) }()
			next := s.next()
			if next["id"] == req["id"] {
				t.Fatalf("the next call reused the id %v", next["id"])
			}
			s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":2}`, next["id"]))
			if err := <-done; err != nil || r != 2 {
				t.Fatalf("the next call: %d, %v", r, err)
			}
			// The late answer was read before the next call's: nothing is pending.
			s.conn.mu.Lock()
			defer s.conn.mu.Unlock()
			if len(s.conn.pending) != 0 {
				t.Fatalf("pending after every call returned: %v", s.conn.pending)
			}
		})
	}
}

// What is not a message ends the connection, as does the end of the
// server's output: the call waiting, and every later one, fail with
// errConnClosed, and Done is closed.
func TestRPCConnEndsOnGarbage(t *testing.T) {
	for name, garbage := range map[string]string{
		"no header":         "{\"jsonrpc\":\"2.0\"}\r\n\r\n",
		"not JSON":          "Content-Length: 5\r\n\r\nhello",
		"a huge length":     fmt.Sprintf("Content-Length: %d\r\n\r\n", maxMessage+1),
		"a negative length": "Content-Length: -4\r\n\r\n",
		"a long header":     strings.Repeat("X", maxHeaderLine+10) + "\r\n",
		"eof":               "",
	} {
		t.Run(name, func(t *testing.T) {
			s := newScripted(t)
			done := make(chan error, 1)
			go func() { done <- s.conn.Call(context.Background(), "q", nil, nil) }()
			s.next()
			if garbage == "" {
				s.out.Close()
			} else {
				go io.WriteString(s.out, garbage) // the output stays open: the garbage alone ends it
			}
			select {
			case err := <-done:
				if !errors.Is(err, errConnClosed) {
					t.Fatalf("waiting call: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the waiting call never returned")
			}
			<-s.conn.Done()
			if err := s.conn.Call(context.Background(), "q", nil, nil); !errors.Is(err, errConnClosed) {
				t.Fatalf("call after the end: %v", err)
			}
		})
	}
}

// A length announced is not allocated ahead of the bytes that come.
func TestReadMessageAllocatesAsBytesCome(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := readMessage(bufio.NewReader(strings.NewReader(fmt.Sprintf("Content-Length: %d\r\n\r\n{\"x\":1}", maxMessage))), nil)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("a body cut short: %v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Fatalf("%d bytes allocated for a message of 7 bytes announced as %d", n, maxMessage)
	}
	body, err := readMessage(bufio.NewReader(strings.NewReader("Content-Length: 7\r\n\r\n{\"x\":1}")), make([]byte, 0, 2))
	if err != nil || string(body) != `{"x":1}` {
		t.Fatalf("a body longer than the buffer: %q, %v", body, err)
	}
}

// readMessage takes any bytes without panicking, and a body it returns is
// exactly the length its header gave.
func FuzzReadMessage(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"))
	f.Add([]byte("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length:  3 \r\n\r\n[1]Content-Length: 0\r\n\r\n"))
	f.Add([]byte("Content-Length: 99999999999999999999\r\n\r\n"))
	f.Add([]byte("Content-Length: 5\n\nab"))
	f.Add([]byte("\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		br := bufio.NewReaderSize(bytes.NewReader(data), 64<<10)
		var buf []byte
		for range 8 {
			body, err := readMessage(br, buf)
			if err != nil {
				return
			}
			if len(body) > maxMessage || len(body) > len(data) {
				t.Fatalf("a body of %d bytes from %d bytes of input", len(body), len(data))
			}
			buf = body
		}
	})
}

// A server that stops reading cannot hold a call past its context: the
// write is stopped and the connection ends, so the next call starts the
// server again instead of waiting behind the stuck write.
func TestRPCConnStuckServer(t *testing.T) {
	stdinR, stdinW, err := os.Pipe() // a pipe as the server's stdin is: writes can be stopped
	if err != nil {
		t.Fatal(err)
	}
	defer stdinR.Close() // never read
	stdoutR, stdoutW := io.Pipe()
	defer stdoutW.Close()
	c := newRPCConn(stdoutR, stdinW, func(*incoming) (any, *rpcError) { return nil, nil })
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	big := strings.Repeat("x", 4<<20) // far more than a pipe holds
	done := make(chan error, 1)
	go func() { done <- c.Call(ctx, "textDocument/didOpen", map[string]string{"text": big}, nil) }()
	select {
	case err := <-done:
		if !errors.Is(err, errConnClosed) {
			t.Fatalf("a call whose request could not be written: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stuck write held the call past its context")
	}
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the connection did not end after a write was cut")
	}
	if err := c.Notify(context.Background(), "exit", nil); !errors.Is(err, errConnClosed) {
		t.Fatalf("a notification after the end: %v", err)
	}
}

package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
)

// JSON-RPC 2.0 over the base protocol of LSP: each message is a
// Content-Length header, a blank line and the JSON body, both ways. A
// message from the server is decoded once into an envelope whose params
// and result stay raw, for the caller to decode into its own types (see
// RATIONALE.md: a general-purpose decoding of the whole message first
// cost more than the rest of the host's part of a large answer).

// maxMessage bounds one message from a server: a longer one ends the
// connection (the server is then restarted by the next call).
const maxMessage = 256 << 20

// maxHeaderLine bounds one header line of a message.
const maxHeaderLine = 4 << 10

// keptBuffer is the largest message buffer the read loop keeps for the
// next message.
const keptBuffer = 1 << 20

// errConnClosed reports a call on, or cut short by, a connection that ended.
var errConnClosed = errors.New("the connection to the language server is closed")

// rpcError is a JSON-RPC error object: a server's answer to a request it
// could not serve, or juju's to a server's request.
type rpcError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string {
	return fmt.Sprintf("language server error %d: %s", e.Code, e.Message)
}

// JSON-RPC error codes juju sends or looks for.
const (
	codeMethodNotFound  = -32601
	codeServerCancelled = -32802
)

// incoming is a request or a notification from the server.
type incoming struct {
	id     json.RawMessage // as the server wrote it; nil for a notification
	method string
	params json.RawMessage
}

func (in *incoming) notification() bool { return in.id == nil }

// envelope is any message from the server, its parts left raw.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// rpcConn is juju's end of a connection to one server.
type rpcConn struct {
	r io.Closer
	w io.WriteCloser
	// handle serves a request or notification from the server, on the read
	// loop: notifications in order, inline; the answer to a request is sent
	// from a goroutine, so that the read loop never waits on a write to a
	// server that is itself blocked writing.
	handle func(*incoming) (any, *rpcError)

	wmu  sync.Mutex // one message written at a time
	wbuf bytes.Buffer

	mu      sync.Mutex
	seq     int64
	pending map[int64]chan *envelope
	closed  bool
	done    chan struct{} // closed when the read loop has ended
}

// newRPCConn starts reading r (the server's stdout); w is its stdin.
func newRPCConn(r io.ReadCloser, w io.WriteCloser, handle func(*incoming) (any, *rpcError)) *rpcConn {
	c := &rpcConn{r: r, w: w, handle: handle, pending: map[int64]chan *envelope{}, done: make(chan struct{})}
	go c.read(r)
	return c
}

// Done is closed once the connection has ended: the server closed its
// output, sent what is not a message, or Close was called.
func (c *rpcConn) Done() <-chan struct{} { return c.done }

// Close ends the connection; calls waiting for an answer get errConnClosed.
func (c *rpcConn) Close() error {
	c.w.Close()
	return c.r.Close()
}

// Call sends a request and waits for its answer, which it decodes into
// result (nil: the answer is dropped). An error answer is an *rpcError.
func (c *rpcConn) Call(ctx context.Context, method string, params, result any) error {
	ch := make(chan *envelope, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return errConnClosed
	}
	c.seq++
	id := c.seq
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.send(ctx, request{JSONRPC: "2.0", ID: &id, Method: method, Params: params}); err != nil {
		c.forget(id)
		return err
	}
	var m *envelope
	select {
	case m = <-ch:
	case <-ctx.Done():
		c.forget(id)
		c.cancel(method, id)
		return ctx.Err()
	case <-c.done:
		select {
		case m = <-ch: // answered just before the end
		default:
			return errConnClosed
		}
	}
	if m.Error != nil {
		return m.Error
	}
	if result == nil || m.Result == nil {
		return nil
	}
	if raw, ok := result.(*json.RawMessage); ok {
		*raw = m.Result // already checked, and a copy of its own
		return nil
	}
	return json.Unmarshal(m.Result, result)
}

// Notify sends a notification.
func (c *rpcConn) Notify(ctx context.Context, method string, params any) error {
	return c.send(ctx, request{JSONRPC: "2.0", Method: method, Params: params})
}

// cancelTimeout bounds the write of a $/cancelRequest, which the call's
// own context, ended, no longer bounds. A few dozen bytes wait that long
// only on a server that has stopped reading a full pipe; the write is
// then cut and the connection ends, as a cut request's does.
const cancelTimeout = 2 * time.Second

// cancel tells the server juju no longer waits for request id, so that it
// stops computing an answer nobody reads (a long references search would
// otherwise hold up every later call behind it). Its answer, if it still
// comes, finds no pending call and is dropped; ids are never reused. No
// cancel follows initialize: until it is answered, LSP lets the client
// send the server nothing else, and a server that does not answer it is
// stopped.
func (c *rpcConn) cancel(method string, id int64) {
	if method == "initialize" {
		return
	}
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return
	}
	ctx, stop := context.WithTimeout(context.Background(), cancelTimeout)
	defer stop()
	c.send(ctx, request{JSONRPC: "2.0", Method: "$/cancelRequest", Params: cancelParams{ID: id}})
}

// cancelParams are the params of $/cancelRequest.
type cancelParams struct {
	ID int64 `json:"id"`
}

func (c *rpcConn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// request is a request (ID set) or a notification.
type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      *int64 `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// reply answers a request of the server's.
type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result"`
}

type errorReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *rpcError       `json:"error"`
}

// writeDeadliner is a writer a deadline can stop (the server's stdin, a
// pipe).
type writeDeadliner interface{ SetWriteDeadline(time.Time) error }

// replyTimeout bounds the write of juju's answer to a server's request,
// which no call's context bounds.
const replyTimeout = 10 * time.Second

// send writes one message, header and body in one write. A server that
// stops reading cannot hold the write past ctx: the write is stopped, and
// since a message written in part leaves the stream unreadable, the
// connection ends (the next call starts the server again).
func (c *rpcConn) send(ctx context.Context, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.wbuf.Reset()
	c.wbuf.WriteString("Content-Length: ")
	c.wbuf.WriteString(strconv.Itoa(len(body)))
	c.wbuf.WriteString("\r\n\r\n")
	c.wbuf.Write(body)
	if wd, ok := c.w.(writeDeadliner); ok && ctx.Done() != nil {
		stopped := make(chan struct{})
		stop := context.AfterFunc(ctx, func() {
			wd.SetWriteDeadline(time.Unix(1, 0))
			close(stopped)
		})
		defer func() {
			if !stop() {
				<-stopped
				wd.SetWriteDeadline(time.Time{})
			}
		}()
	}
	if _, err := c.w.Write(c.wbuf.Bytes()); err != nil {
		c.Close()
		return fmt.Errorf("%w: %v", errConnClosed, err)
	}
	return nil
}

// read is the read loop: it hands each answer to its call and each
// request or notification to handle, until the server's output ends or
// is not a message.
func (c *rpcConn) read(r io.Reader) {
	defer func() {
		c.mu.Lock()
		c.closed = true
		c.pending = nil
		c.mu.Unlock()
		close(c.done)
	}()
	br := bufio.NewReaderSize(r, 64<<10)
	var body []byte
	for {
		var err error
		if body, err = readMessage(br, body); err != nil {
			return
		}
		var m envelope
		err = json.Unmarshal(body, &m) // copies what it keeps
		if cap(body) > keptBuffer {
			body = nil
		}
		if err != nil {
			return // not JSON-RPC: nothing after it can be trusted either
		}
		if m.Method != "" {
			in := &incoming{id: m.ID, method: m.Method, params: m.Params}
			res, rerr := c.handle(in)
			if !in.notification() {
				go c.answer(in.id, res, rerr)
			}
			continue
		}
		id, err := strconv.ParseInt(string(m.ID), 10, 64)
		if err != nil {
			continue // an answer to no request of juju's
		}
		c.mu.Lock()
		ch := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if ch != nil {
			ch <- &m
		}
	}
}

// answer sends the reply to a server's request.
func (c *rpcConn) answer(id json.RawMessage, res any, rerr *rpcError) {
	ctx, cancel := context.WithTimeout(context.Background(), replyTimeout)
	defer cancel()
	if rerr != nil {
		c.send(ctx, errorReply{JSONRPC: "2.0", ID: id, Error: rerr})
		return
	}
	c.send(ctx, reply{JSONRPC: "2.0", ID: id, Result: res})
}

// readMessage reads one message's headers and returns its body, in buf's
// storage when it is large enough.
func readMessage(br *bufio.Reader, buf []byte) ([]byte, error) {
	length := -1
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			if errors.Is(err, bufio.ErrBufferFull) {
				return nil, errors.New("lsp: a header line too long")
			}
			return nil, err
		}
		if len(line) > maxHeaderLine {
			return nil, errors.New("lsp: a header line too long")
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return nil, fmt.Errorf("lsp: a header line without a colon: %q", line)
		}
		if bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")) {
			n, err := strconv.Atoi(string(bytes.TrimSpace(value)))
			if err != nil || n < 0 || n > maxMessage {
				return nil, fmt.Errorf("lsp: a Content-Length of %q", value)
			}
			length = n
		}
	}
	if length < 0 {
		return nil, errors.New("lsp: a message without Content-Length")
	}
	if length <= cap(buf) {
		buf = buf[:length]
		if _, err := io.ReadFull(br, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	// Grown as the bytes come, not ahead: a length alone allocates nothing.
	b := bytes.NewBuffer(buf[:0])
	if _, err := io.CopyN(b, br, int64(length)); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return b.Bytes(), nil
}

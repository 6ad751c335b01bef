package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
)

// inflight counts the client's requests that have not been answered yet, so
// that the end of the input does not cut them off: mcp-go cancels every
// running call when its input ends, which would make `juju stdio < calls`
// answer nothing. The reader records requests as they are read; the writer
// strikes them off as their responses are written.
type inflight struct {
	mu      sync.Mutex
	pending map[string]int
	zero    chan struct{} // closed while nothing is pending
}

func newInflight() *inflight {
	z := make(chan struct{})
	close(z)
	return &inflight{pending: map[string]int{}, zero: z}
}

func (f *inflight) add(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.pending) == 0 {
		f.zero = make(chan struct{})
	}
	f.pending[id]++
}

func (f *inflight) done(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, ok := f.pending[id]
	if !ok {
		return
	}
	if n > 1 {
		f.pending[id] = n - 1
		return
	}
	delete(f.pending, id)
	if len(f.pending) == 0 {
		close(f.zero)
	}
}

// wait returns when nothing is pending or ctx ends.
func (f *inflight) wait(ctx context.Context) {
	f.mu.Lock()
	z := f.zero
	f.mu.Unlock()
	select {
	case <-z:
	case <-ctx.Done():
	}
}

// drainReader reads the client's messages, recording each request, and
// holds back the end of input until every request has been answered.
type drainReader struct {
	ctx  context.Context
	r    io.Reader
	f    *inflight
	line []byte // a message not yet ended by a newline
}

func (d *drainReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.scan(p[:n])
	if err == io.EOF {
		d.f.wait(d.ctx)
	}
	return n, err
}

func (d *drainReader) scan(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			d.line = append(d.line, b...)
			return
		}
		msg := b[:i]
		if len(d.line) > 0 {
			msg = append(d.line, msg...)
			d.line = nil
		}
		b = b[i+1:]
		var head struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(msg, &head) == nil && len(head.ID) > 0 && head.Method != "" {
			d.f.add(string(head.ID))
		}
	}
}

// responseID returns the id of a JSON-RPC response as mcp-go writes it
// ({"jsonrpc":"2.0","id":…,"result"|"error":…}), or false for anything else.
func responseID(b []byte) (string, bool) {
	const prefix = `{"jsonrpc":"2.0","id":`
	if !bytes.HasPrefix(b, []byte(prefix)) {
		return "", false
	}
	rest := b[len(prefix):]
	var end int
	if len(rest) > 0 && rest[0] == '"' {
		j := bytes.IndexByte(rest[1:], '"')
		if j < 0 {
			return "", false
		}
		end = j + 2
	} else {
		end = bytes.IndexByte(rest, ',')
		if end < 0 {
			return "", false
		}
	}
	after := rest[end:]
	if !bytes.HasPrefix(after, []byte(`,"result"`)) && !bytes.HasPrefix(after, []byte(`,"error"`)) {
		return "", false
	}
	return string(rest[:end]), true
}

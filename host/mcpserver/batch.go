package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
)

// A JSON-RPC batch is an array of messages on one line. MCP 2025-03-26
// has its servers accept them (later versions dropped them), and mcp-go's
// stdio server answers one with a parse error, so juju's loop serves
// batches itself: each request in turn, through mcp-go's server in the
// stdio session as a lone request is served, and the answers written as
// one array (JSON-RPC 2.0, section 6), leaving out those the client
// cancelled. Notifications and responses in a batch go on to mcp-go's
// stdio server, as alone they would. A batch of nothing but those, or
// whose every request was cancelled, gets no answer.

// batchesAllowed reports whether a client speaking the protocol version
// may send batches. MCP 2025-03-26 has servers accept them; 2025-06-18
// removed them, and its clients and 2025-11-25's send each message alone
// (stdio: "individual JSON-RPC requests, notifications, or responses";
// HTTP: a POST body "MUST be a single JSON-RPC" message), so a batch from
// one is refused. A version not known yet ("": before initialize is
// answered, or an HTTP request without the version header, which MCP has
// servers read as 2025-03-26), 2024-11-05's (plain JSON-RPC 2.0) and the
// stateless protocol's (2026-07-28, whose batches the HTTP front serves
// with rules of their own) keep them.
func batchesAllowed(version string) bool {
	switch version {
	case mcp.ProtocolVersion20250618, mcp.ProtocolVersion20251125:
		return false
	}
	return true
}

// batchRefusal is the invalid-request error answering a batch its
// client's protocol version does not allow.
func batchRefusal(version string) mcp.JSONRPCError {
	return invalidRequest(nil, fmt.Sprintf("MCP %s has no JSON-RPC batches (they were removed in 2025-06-18): send each message alone", version))
}

// maxBatch bounds the messages in one batch: a batch is served one message
// after another, and a line of 16 MiB holds a million pings.
const maxBatch = 256

// isBatch reports whether line is a JSON array.
func isBatch(line []byte) bool {
	line = bytes.TrimLeft(line, " \t\r")
	return len(line) > 0 && line[0] == '['
}

// startBatch serves the batch line on a goroutine of its own, holding one
// of the tool calls' slots (waiting for one, as a call does), and holds
// back the end of the input until it is answered.
func (d *stdioLoop) startBatch(line []byte) {
	if !d.reserveWait(len(line)) {
		d.writeAnswer(invalidRequest(nil, fmt.Sprintf("juju is already running %d tool calls at once on this connection, and %d more wait; send the batch again once some end", maxStdioCalls, maxStdioWaiting)))
		return
	}
	d.calls.Add(1)
	key := fmt.Sprintf("batch %d", d.batches.Add(1)) // no JSON id reads so
	d.l.f.add(key)
	go func() {
		defer d.calls.Done()
		defer d.l.f.done(key)
		d.slots <- struct{}{}
		defer func() { <-d.slots }()
		d.endWait(len(line))
		d.serveBatch(line)
	}()
}

// serveBatch answers the batch line.
func (d *stdioLoop) serveBatch(line []byte) {
	var msgs []json.RawMessage
	err := json.Unmarshal(line, &msgs)
	if err != nil && tooDeep(err) {
		if split := splitBatch(line); split != nil {
			msgs, err = split, nil
		}
	}
	if err != nil {
		d.writeAnswer(mcp.JSONRPCError{
			JSONRPC: mcp.JSONRPC_VERSION,
			ID:      mcp.NewRequestId(nil),
			Error:   mcp.NewJSONRPCErrorDetails(mcp.PARSE_ERROR, "the batch is not valid JSON: "+err.Error(), nil),
		})
		return
	}
	switch {
	case len(msgs) == 0:
		d.writeAnswer(invalidRequest(nil, "the batch is empty; send at least one message"))
		return
	case len(msgs) > maxBatch:
		d.writeAnswer(invalidRequest(nil, fmt.Sprintf("the batch holds %d messages, more than the %d juju serves in one; send them in smaller batches", len(msgs), maxBatch)))
		return
	}
	select {
	case <-d.sessionMade:
	case <-d.listenEnded:
		d.writeAnswer(invalidRequest(nil, "juju's MCP session has ended"))
		return
	}
	// Each request of the batch may be cancelled from the moment the batch
	// is read, not only from its turn: one the client gives up while an
	// earlier one runs is never served, as a lone request cancelled while
	// it waits for a slot is not.
	pending := make([]*atomic.Bool, len(msgs))
	for i, m := range msgs {
		head, refusal := readBatched(bytes.TrimSpace(m))
		if refusal != nil || head.Method == "" || !validID(head.ID) {
			continue
		}
		flag := new(atomic.Bool)
		if _, taken := d.pending.LoadOrStore(string(head.ID), flag); !taken {
			pending[i] = flag
			defer d.pending.CompareAndDelete(string(head.ID), flag)
		}
	}
	out := []byte{'['}
	gen, noted := d.s.direct.gen.Load(), d.w.nextNote()
	for i, m := range msgs {
		if b, ok := d.batchAnswer(m, pending[i]); ok {
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(out, b...)
		}
	}
	if len(out) == 1 {
		return // notifications and responses only
	}
	if d.s.direct.gen.Load() != gen {
		d.awaitNotifications(noted) // as for a lone request (stdio.go)
	}
	if _, err := d.w.Write(append(out, ']', '\n')); err != nil {
		d.errLog.Printf("writing the answer to a batch: %v", err)
	}
}

// readBatched reads one message of a batch, over stdio or HTTP: its head,
// or the answer refusing it (not an object, a request whose id is neither
// a string nor a number, a message carrying a method and a result or an
// error, an initialize).
func readBatched(m json.RawMessage) (msgHead, []byte) {
	var head msgHead
	if len(m) == 0 || m[0] != '{' {
		return head, mustJSON(invalidRequest(nil, "each message of a batch is a JSON-RPC object"))
	}
	if err := json.Unmarshal(m, &head); err != nil {
		if badMethod(head, err) {
			return head, mustJSON(invalidRequest(asWritten(head.ID), badMethodMessage))
		}
		return head, mustJSON(invalidRequest(nil, "each message of a batch is a JSON-RPC object"))
	}
	switch {
	case head.Method != "" && head.ID != nil && !validID(head.ID):
		return head, mustJSON(invalidRequest(nil, badIDMessage))
	case head.Method != "" && (len(head.Result) > 0 || len(head.Error) > 0):
		return head, mustJSON(invalidRequest(asWritten(head.ID), badShapeMessage))
	case head.Method != "" && head.ID != nil && !validVersion(head.JSONRPC):
		return head, mustJSON(invalidRequest(asWritten(head.ID), badVersionMessage))
	case head.Method == string(mcp.MethodInitialize):
		return head, mustJSON(invalidRequest(asWritten(head.ID), "initialize cannot be part of a batch; send it alone, first"))
	}
	return head, nil
}

// tooDeep reports whether err is encoding/json's refusal of a value
// nested deeper than it reads (10,000 arrays and objects).
func tooDeep(err error) bool {
	var se *json.SyntaxError
	return errors.As(err, &se) && strings.HasSuffix(se.Error(), "exceeded max depth")
}

// splitBatch returns the messages of the batch line, which encoding/json
// refused as nested too deep, each as written: a message nested too deep
// is then answered alone, by its id (deepRefusal), and the others are
// served, where one parse error of id null left the client waiting for
// every request of the batch. It returns nil when line is not an array of
// values each of which is valid JSON or only nested too deep.
func splitBatch(line []byte) []json.RawMessage {
	line = bytes.TrimSpace(line)
	if len(line) < 2 || line[0] != '[' {
		return nil
	}
	var msgs []json.RawMessage
	depth, inString, escaped, start := 0, false, false, 1
	for i, c := range line {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		}
		if inString || depth > 1 || depth == 1 && c != ',' {
			continue
		}
		m := bytes.TrimSpace(line[start:i])
		if depth < 0 || depth == 0 && i != len(line)-1 || len(m) == 0 {
			return nil
		}
		if err := json.Unmarshal(m, new(json.RawMessage)); err != nil && !tooDeep(err) {
			return nil
		}
		msgs = append(msgs, m)
		start = i + 1
		if depth == 0 {
			return msgs
		}
	}
	return nil
}

// batchAnswer serves one message of a batch and returns its answer, if it
// has one: a request the client cancelled while it was served, or before
// its turn (the flag pending, when not nil), has none.
func (d *stdioLoop) batchAnswer(m json.RawMessage, pending *atomic.Bool) ([]byte, bool) {
	m = bytes.TrimSpace(m)
	if err := json.Unmarshal(m, new(json.RawMessage)); err != nil {
		if head := deepHead(m, err); head.deep {
			return mustJSON(d.deepRefusal(head)), true
		}
	}
	head, refusal := readBatched(m)
	if refusal != nil {
		return refusal, true
	}
	switch {
	case methodless(head) && !validID(head.ID):
		return mustJSON(invalidRequest(nil, badIDMessage)), true
	case methodless(head):
		// A request whose method is "" or null: mcp-go answers it
		// -32601, by its id, which belongs in the batch's answer.
	case strayParams(m, head):
		return nil, false
	case head.Method == "" || len(head.ID) == 0:
		// A response to a request of juju's, or a notification: mcp-go's
		// stdio server keeps track of those.
		if head.Method == string(mcp.MethodNotificationCancelled) {
			m = d.noteCancel(m)
		}
		m = quietError(m, head)
		if _, err := d.fwd.Write(append(bytes.Clone(m), '\n')); err != nil {
			d.errLog.Printf("handing on a message of a batch: %v", err)
		}
		return nil, false
	}
	if head.Method == string(mcp.MethodToolsList) {
		defer d.warmNow() // as serve does
	}
	m, head.ID, _ = d.w.f.ids.substitute(m, head.ID, "")
	cancelled := d.markServing(head)
	defer d.serving.CompareAndDelete(string(head.ID), cancelled)
	if pending != nil && pending.Load() {
		// Cancelled before its turn (checked once marked serving, so that a
		// cancellation from now on finds it there).
		d.w.f.ids.forget(head.ID)
		return nil, false
	}
	resp := d.handle(d.session, m, head)
	if cancelled.Load() {
		// The client gave it up: the batch's answer leaves it out, as a
		// lone request's answer is not sent (serve).
		d.w.f.ids.forget(head.ID)
		return nil, false
	}
	if b, ok := d.s.appendAnswer(nil, resp); ok {
		return d.w.f.ids.restore(b), true
	}
	b, err := json.Marshal(resp)
	if err != nil {
		d.errLog.Printf("encoding the answer to %s: %v", head.Method, err)
		b = mustJSON(internalError(head, "juju could not encode the answer"))
	}
	return d.w.f.ids.restore(b), true
}

// methodless reports whether head is a request with no method's name (a
// method "" or null): it has an id other than null, and neither result nor
// error, which a response carries. mcp-go serves it as a request and
// answers it -32601 by its id.
func methodless(head msgHead) bool {
	id := bytes.TrimSpace(head.ID)
	return head.Method == "" && len(id) > 0 && !bytes.Equal(id, []byte("null")) &&
		len(head.Result) == 0 && len(head.Error) == 0
}

// mustJSON encodes a message made of plain parts.
func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

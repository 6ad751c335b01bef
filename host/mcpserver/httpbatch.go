package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// serveBatch answers a POST whose body is a JSON-RPC batch, which MCP
// 2025-03-26 has servers accept and mcp-go's streamable HTTP server
// refuses as invalid JSON. Each message is served in turn by mcp-go, as
// if it had come in a POST of its own with the same headers, and the
// answers to the batch's requests are streamed back as SSE events, one per
// answer, which MCP allows for any POST holding requests: a tool call
// that asks the client something (an approval) streams its question the
// same way and is answered in a POST of the client's. A batch of nothing
// but notifications and responses is answered 202, as one of those alone.
//
// Once split, the batch holds of the body budget only its messages (not
// the whitespace around them), and each message's part is given back once
// mcp-go has served it, before its answer is written.
func (f *front) serveBatch(w http.ResponseWriter, r *http.Request, body []byte, held *lease) {
	v := r.Header.Get(mcp.HeaderProtocolVersion)
	if v != "" && !mcp.IsModernProtocol(v) && !mcp.IsValidProtocolVersion(v) {
		// As mcp-go refuses a message sent alone (MCP: 400 for an
		// unsupported version), where each message of the batch was
		// answered an internal error of id null, which no client matches.
		writeJSON(w, http.StatusBadRequest, unsupportedVersion(v))
		return
	}
	if !batchesAllowed(v) {
		writeJSON(w, http.StatusBadRequest, batchRefusal(v))
		return
	}
	var msgs []json.RawMessage
	err := json.Unmarshal(body, &msgs)
	if err != nil && tooDeep(err) {
		// A request nested too deep is answered alone, by its id, and the
		// others are served, as over stdio.
		if split := splitBatch(body); split != nil {
			msgs, err = split, nil
		}
	}
	body, r.Body = nil, http.NoBody // r is the front's copy
	var kept int64
	for _, m := range msgs {
		kept += int64(len(m))
	}
	held.keep(kept)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, mcp.JSONRPCError{
			JSONRPC: mcp.JSONRPC_VERSION,
			ID:      mcp.NewRequestId(nil),
			Error:   mcp.NewJSONRPCErrorDetails(mcp.PARSE_ERROR, "the batch is not valid JSON: "+err.Error(), nil),
		})
		return
	}
	switch {
	case len(msgs) == 0:
		writeJSON(w, http.StatusOK, invalidRequest(nil, "the batch is empty; send at least one message"))
		return
	case len(msgs) > maxBatch:
		writeJSON(w, http.StatusOK, invalidRequest(nil, fmt.Sprintf("the batch holds %d messages, more than the %d juju serves in one; send them in smaller batches", len(msgs), maxBatch)))
		return
	}
	// Each request of the batch may be cancelled from the moment the batch
	// is in, not only from its turn: a client that gives up a request
	// while an earlier one of the batch runs must not see it run later
	// and answered, as it would if it had sent the request alone.
	pending := f.holdPending(r, msgs)
	defer func() {
		for _, p := range pending {
			p.unhold()
		}
	}()
	out := &sseOut{w: w}
	for i, m := range msgs {
		msgs[i] = nil
		size := int64(len(m))
		m = bytes.TrimSpace(m)
		head, refusal := readBatched(m)
		if refusal != nil {
			if h := deepHead(m, json.Unmarshal(m, new(json.RawMessage))); h.deep {
				refusal = mustJSON(f.deepRefusal(r.Context(), h))
			}
			held.give(size)
			out.event(refusal)
			continue
		}
		msg := peekMessage(request{modern: mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion))}, m)
		if msg.refusal != nil {
			held.give(size)
			out.event(mustJSON(msg.refusal))
			continue
		}
		if msg.stray {
			held.give(size)
			continue // as serveMCP drops it
		}
		if msg.listen {
			// It would hold the batch open, its stream uncounted.
			var id any
			json.Unmarshal(head.ID, &id)
			held.give(size)
			out.event(mustJSON(invalidRequest(id, "subscriptions/listen opens an event stream of its own: send it alone, not in a batch")))
			continue
		}
		if msg.modern && msg.cancels != "" && f.stateless.othersHold(msg.cancels, principalOf(r.Context())) {
			held.give(size)
			continue // as serveMCP drops it
		}
		if msg.cancels != "" {
			// The call it names gets no answer, as when the cancellation
			// comes alone (serveMCP): mcp-go answered it all the same.
			f.cancellable.cancel(idScope(r, principalOf(r.Context())) + "\x00" + msg.cancels)
		}
		if msg.badCall != nil {
			f.refusedCall(r.Context(), msg.badCall)
			held.give(size)
			out.event(mustJSON(msg.badCall.answer))
			continue
		}
		if p := pending[i]; p.cw != nil && p.cw.cancelled() {
			held.give(size)
			continue // cancelled before its turn: not served, not answered
		}
		end := func() {}
		if msg.modern && msg.call != "" {
			end = f.stateless.start(msg.call, principalOf(r.Context()))
		}
		ctx := r.Context()
		m, swap, forget := f.swapIDs(m, msg, idScope(r, principalOf(ctx)))
		if msg.call != "" {
			ctx, m = readableCall(ctx, m)
		}
		bw := &batchWriter{out: out, header: http.Header{}, swap: swap}
		var into http.ResponseWriter = bw
		var cw *cutWriter
		stop := func() {}
		if p := pending[i]; p.cw != nil {
			// A cancellation naming it, in a POST of its own or later in
			// this batch, stops it and leaves its answer out of the
			// stream, as a request sent alone gets none (serveMCP) and a
			// stdio batch's answer leaves it out.
			var armed bool
			if ctx, stop, armed = p.cw.arm(ctx, bw); !armed {
				// Cancelled since the check above.
				forget()
				end()
				held.give(size)
				continue
			}
			cw, into = p.cw, p.cw
		}
		one := r.Clone(ctx)
		setBody(one, m)
		f.mcp.ServeHTTP(into, one)
		pending[i].unhold()
		stop()
		forget()
		end()
		held.give(size)
		if cw == nil || !cw.cancelled() {
			bw.finish()
		}
	}
	if !out.started {
		w.WriteHeader(http.StatusAccepted)
	}
}

// setBody makes body the body of r, a copy the front made.
func setBody(r *http.Request, body []byte) {
	r.Body = http.NoBody
	if len(body) > 0 {
		r.Body = readCloser{bytes.NewReader(body)}
	}
	r.ContentLength = int64(len(body))
	r.Header.Set("Content-Length", strconv.Itoa(len(body)))
}

// readCloser is a reader with a Close that does nothing.
type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

// sseOut is the stream answering a batch, started with its first event.
type sseOut struct {
	w       http.ResponseWriter
	started bool
}

func (o *sseOut) start() {
	if o.started {
		return
	}
	o.started = true
	h := o.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	o.w.WriteHeader(http.StatusOK)
}

// event writes one JSON-RPC message as an SSE event, as mcp-go writes
// them.
func (o *sseOut) event(msg []byte) {
	o.start()
	fmt.Fprintf(o.w, "event: message\ndata: %s\n\n", msg)
	o.flush()
}

func (o *sseOut) flush() {
	if f, ok := o.w.(http.Flusher); ok {
		f.Flush()
	}
}

// batchWriter is what mcp-go writes one message's answer to: an SSE stream
// is passed through to the batch's as it comes (its events are whole
// messages), a JSON answer kept and written as an event when mcp-go is
// done with it, and nothing of an answer without a body (202).
type batchWriter struct {
	out    *sseOut
	header http.Header
	code   int
	sse    bool
	body   bytes.Buffer
	swap   idSwap // the client's id back in place of juju's (ids.go)
}

func (b *batchWriter) Header() http.Header { return b.header }

func (b *batchWriter) WriteHeader(code int) {
	if b.code != 0 {
		return
	}
	b.code = code
	b.sse = strings.HasPrefix(b.header.Get("Content-Type"), "text/event-stream")
	if b.sse {
		b.out.start()
	}
}

func (b *batchWriter) Write(p []byte) (int, error) {
	if b.code == 0 {
		b.WriteHeader(http.StatusOK)
	}
	if b.sse {
		if _, err := b.out.w.Write(b.swap.apply(p)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return b.body.Write(p)
}

func (b *batchWriter) Flush() {
	if b.sse {
		b.out.flush()
	}
}

// finish writes a JSON answer, kept whole, as one event. A body that is
// not a JSON-RPC message (a plain-text error of mcp-go's) becomes an
// internal error, so every request of the batch gets an answer.
func (b *batchWriter) finish() {
	if b.sse || b.body.Len() == 0 {
		return
	}
	msg := bytes.TrimSpace(b.body.Bytes())
	var probe struct {
		JSONRPC string `json:"jsonrpc"`
	}
	if json.Unmarshal(msg, &probe) != nil || probe.JSONRPC != mcp.JSONRPC_VERSION {
		msg = mustJSON(mcp.JSONRPCError{
			JSONRPC: mcp.JSONRPC_VERSION,
			ID:      mcp.NewRequestId(nil),
			Error:   mcp.NewJSONRPCErrorDetails(mcp.INTERNAL_ERROR, fmt.Sprintf("a message of the batch was refused (%d): %s", b.code, bytes.TrimSpace(b.body.Bytes())), nil),
		})
	}
	b.out.event(b.swap.apply(msg))
}

// pendingRequest is a request of a batch that a cancellation may name:
// its answer, cut when cancelled, and the end of its hold.
type pendingRequest struct {
	cw     *cutWriter
	unhold func()
}

// holdPending holds, among the requests a notifications/cancelled may
// name, every request of the batch msgs with an id, by the index of its
// message; the others get a pendingRequest with no answer. A request
// whose id an earlier one of the batch, or a request in flight, holds is
// not held, as a lone request's is not (cancellable.hold).
func (f *front) holdPending(r *http.Request, msgs []json.RawMessage) []pendingRequest {
	modern := mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion))
	scope := idScope(r, principalOf(r.Context()))
	pending := make([]pendingRequest, len(msgs))
	for i, m := range msgs {
		pending[i].unhold = func() {}
		m = bytes.TrimSpace(m)
		if _, refusal := readBatched(m); refusal != nil {
			continue
		}
		msg := peekMessage(request{modern: modern}, m)
		if msg.id == nil || msg.refusal != nil || msg.listen || msg.badCall != nil {
			continue
		}
		cw := newPending()
		pending[i] = pendingRequest{cw: cw, unhold: f.cancellable.hold(scope+"\x00"+idKey(msg.id), cw)}
	}
	return pending
}

// unsupportedVersion is the invalid-request error answering a batch whose
// Mcp-Protocol-Version header names a version juju does not speak.
func unsupportedVersion(v string) mcp.JSONRPCError {
	return invalidRequest(nil, fmt.Sprintf("unsupported protocol version %q in the Mcp-Protocol-Version header: send the version initialize agreed (juju speaks %s)",
		v, strings.Join(mcp.ValidProtocolVersions, ", ")))
}

package mcpserver

import (
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// rpcWriter is the response writer mcp-go writes to over HTTP. It reports
// the session id an initialize answer carries, so the front can bind it to
// its principal, and passes every message through as mcp-go wrote it (a
// JSON body or an SSE event): arguments that do not fit a tool's schema
// are already tool results, as on stdio.
type rpcWriter struct {
	http.ResponseWriter
	onSession   func(id string)
	onAnswer    func() // called once, as the answer starts
	wroteHeader bool
	swap        idSwap // the client's id back in place of juju's (ids.go)
}

func (w *rpcWriter) WriteHeader(code int) {
	if !w.wroteHeader {
		w.wroteHeader = true
		if w.onAnswer != nil {
			w.onAnswer()
		}
		if id := w.Header().Get(server.HeaderKeySessionID); id != "" && code < 300 && w.onSession != nil {
			w.onSession(id)
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *rpcWriter) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if _, err := w.ResponseWriter.Write(w.swap.apply(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush keeps SSE streaming: mcp-go streams only to a writer that flushes.
func (w *rpcWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *rpcWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// timedWriter gives each write of an answer, and each flush, a deadline
// of its own (Limits.WriteTimeout): a client that stops reading blocks a
// write for that long at most, then the connection is cut. A whole SSE
// stream has no deadline, only each event. done arms the deadline once
// more for what net/http writes after the handler returns: the rest of
// the answer, which it flushes itself (finishRequest) before it clears
// the deadline for the connection's next request.
type timedWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func (t *timedWriter) arm() {
	t.rc.SetWriteDeadline(time.Now().Add(t.timeout))
}

func (t *timedWriter) Write(p []byte) (int, error) {
	t.arm()
	return t.ResponseWriter.Write(p)
}

func (t *timedWriter) Flush() {
	t.arm()
	t.rc.Flush()
}

// Unwrap lets http.ResponseController reach the connection.
func (t *timedWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// done ends the handler's part of the answer. It does not flush: an
// answer that fits net/http's buffer then goes out whole, with its
// Content-Length, in one write, where a flush here made it chunked and
// cost a second write for the chunks' end (docs/RATIONALE.md, "An HTTP
// answer is written once").
func (t *timedWriter) done() {
	t.arm()
}

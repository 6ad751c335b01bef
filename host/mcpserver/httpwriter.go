package mcpserver

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/mark3labs/mcp-go/server"
)

// rpcWriter is the response writer mcp-go writes to over HTTP. It passes
// every message through fixParams, as stdio's paramsWriter does, whether
// the message is a JSON body or an SSE event; and it reports the session id
// an initialize answer carries, so the front can bind it to its principal.
type rpcWriter struct {
	http.ResponseWriter
	onSession   func(id string)
	wroteHeader bool
}

func (w *rpcWriter) WriteHeader(code int) {
	if !w.wroteHeader {
		w.wroteHeader = true
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
	fixed, ok := fixFrame(p)
	if !ok {
		return w.ResponseWriter.Write(p)
	}
	if _, err := w.ResponseWriter.Write(fixed); err != nil {
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

// sseData is where an SSE event's JSON begins, as mcp-go writes events
// ("event: message\ndata: {…}\n\n", one Write each).
var sseData = []byte("data: ")

// fixFrame applies fixParams to one write of mcp-go's: a JSON body (with
// its newline) or an SSE event.
func fixFrame(p []byte) ([]byte, bool) {
	if !bytes.Contains(p, marker) {
		return nil, false
	}
	if i := bytes.Index(p, sseData); i >= 0 && !json.Valid(p) {
		start := i + len(sseData)
		end := bytes.IndexByte(p[start:], '\n')
		if end < 0 {
			return nil, false
		}
		fixed, ok := fixParams(p[start : start+end])
		if !ok {
			return nil, false
		}
		out := append([]byte{}, p[:start]...)
		out = append(out, fixed...)
		return append(out, p[start+end:]...), true
	}
	fixed, ok := fixParams(p)
	if !ok {
		return nil, false
	}
	return append(fixed, '\n'), true
}

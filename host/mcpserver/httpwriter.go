package mcpserver

import (
	"net/http"

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
	return w.ResponseWriter.Write(p)
}

// Flush keeps SSE streaming: mcp-go streams only to a writer that flushes.
func (w *rpcWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *rpcWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

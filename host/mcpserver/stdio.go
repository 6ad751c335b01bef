package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/host"
)

// ServeStdio serves MCP over in and out until in ends or ctx is done.
// out carries only JSON-RPC; logs go to the host's logger.
func ServeStdio(ctx context.Context, h *host.Host, in io.Reader, out io.Writer, errLog *log.Logger) error {
	s, err := New(h)
	if err != nil {
		return err
	}
	s.warmAfterHandshake(ctx)
	std := server.NewStdioServer(s.mcp)
	std.SetErrorLogger(errLog)
	server.WithWorkerPoolSize(32)(std)
	server.WithQueueSize(256)(std)
	f := newInflight()
	w := &paramsWriter{w: out, f: f}
	tooLarge := tooLargeAnswer(MaxMessage)
	r := newLineReader(ctx, in, f, func() {
		if _, err := w.Write(tooLarge); err != nil {
			errLog.Printf("answering a message over %d bytes: %v", MaxMessage, err)
		}
	})
	return std.Listen(ctx, r, w)
}

// paramsWriter rewrites the internal errors that carry invalidParamsPrefix
// into JSON-RPC invalid-params errors. mcp-go writes each message with one
// Write call, a JSON object and a newline.
type paramsWriter struct {
	mu sync.Mutex
	w  io.Writer
	f  *inflight // strikes off answered requests; may be nil
}

var marker = []byte(`"message":"` + invalidParamsPrefix)

func (p *paramsWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.f != nil {
		if id, ok := responseID(b); ok {
			defer p.f.done(id)
		}
	}
	fixed, ok := fixParams(b)
	if !ok {
		return p.w.Write(b)
	}
	if _, err := p.w.Write(append(fixed, '\n')); err != nil {
		return 0, err
	}
	return len(b), nil
}

// fixParams rewrites one JSON-RPC message: an internal error whose message
// carries invalidParamsPrefix becomes an invalid-params error without the
// prefix. It returns the rewritten message (compact JSON, no newline) and
// true, or false when msg is anything else. Every transport sends its
// messages through it (paramsWriter for stdio, rpcWriter for HTTP).
func fixParams(msg []byte) ([]byte, bool) {
	if !bytes.Contains(msg, marker) {
		return nil, false
	}
	var e mcp.JSONRPCError
	if err := json.Unmarshal(msg, &e); err != nil || e.Error.Code != mcp.INTERNAL_ERROR ||
		!strings.HasPrefix(e.Error.Message, invalidParamsPrefix) {
		return nil, false
	}
	e.Error.Code = mcp.INVALID_PARAMS
	e.Error.Message = strings.TrimPrefix(e.Error.Message, invalidParamsPrefix)
	fixed, err := json.Marshal(e)
	if err != nil {
		return nil, false
	}
	return fixed, true
}

// warmDelay is how long juju waits for the client's handshake before it
// compiles its plugins anyway (clients of the stateless protocol send none).
const warmDelay = 100 * time.Millisecond

// warmAfterHandshake compiles the plugins in the background once the
// client has its initialize answer (on notifications/initialized), or after
// warmDelay, whichever comes first, so that compiling never competes with
// the answer to initialize. A call that comes earlier compiles its plugin
// itself. A notifications/initialized sent before initialize is ignored,
// as every notification is then.
func (s *Server) warmAfterHandshake(ctx context.Context) {
	var once sync.Once
	warm := func() { once.Do(func() { s.host.Warm(ctx) }) }
	s.mcp.AddNotificationHandler(string(mcp.MethodNotificationInitialized), func(ctx context.Context, _ mcp.JSONRPCNotification) {
		if s.hs.initialized(ctx) {
			warm()
		}
	})
	time.AfterFunc(warmDelay, warm)
}

package mcpserver

import (
	"context"
	"io"
	"log"
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
	w := &answerWriter{w: out, f: f}
	tooLarge := tooLargeAnswer(MaxMessage)
	r := newLineReader(ctx, in, f, func() {
		if _, err := w.Write(tooLarge); err != nil {
			errLog.Printf("answering a message over %d bytes: %v", MaxMessage, err)
		}
	})
	return std.Listen(ctx, r, w)
}

// answerWriter writes mcp-go's messages (one Write call each: a JSON
// object and a newline) and strikes each answered request off the
// in-flight set, so the reader knows what is still being served.
type answerWriter struct {
	mu sync.Mutex
	w  io.Writer
	f  *inflight
}

func (a *answerWriter) Write(b []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if id, ok := responseID(b); ok {
		defer a.f.done(id)
	}
	return a.w.Write(b)
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

package mcpserver

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/sdk/abi"
)

// HTTPConfig is what ServeHTTP needs besides the host.
type HTTPConfig struct {
	// Listener is where the server accepts connections (loopback unless the
	// owner chose otherwise).
	Listener net.Listener
	// PublicURL is the address a tunnel gives this server (scheme and
	// host), accepted as Host and Origin besides loopback; nil when none.
	PublicURL *url.URL
	// Token is the local bearer token.
	Token string
	// OAuth serves the OAuth endpoints and verifies their access tokens;
	// nil serves the local token alone.
	OAuth Authorizer
	// Limits bound each client; zero fields take the defaults.
	Limits Limits
	// Log receives the server's log lines (never a token).
	Log *slog.Logger
	// Grace bounds the wait for requests in flight at shutdown.
	Grace time.Duration
}

// ServeHTTP serves MCP over streamable HTTP on cfg.Listener until ctx is
// done: the same tools, errors, gate, approvals and audit as stdio, behind
// the front's checks.
func ServeHTTP(ctx context.Context, h *host.Host, cfg HTTPConfig) error {
	s, err := New(h)
	if err != nil {
		return err
	}
	s.warmAfterHandshake(ctx, 0, warmDelay)
	handler, closeSessions := s.httpHandler(cfg)
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go handler.watchGrants(wctx)
	log := logger(cfg.Log)
	lim := cfg.Limits.withDefaults()
	conns := newConnLimit(cfg.Listener, lim.MaxConns, log)
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: lim.HeaderTimeout,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
		ConnState:         conns.track,
		ConnContext:       conns.context,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(conns) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	grace := cfg.Grace
	if grace <= 0 {
		grace = 3 * time.Second
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	closeSessions(sctx)
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	srv.Close()
	return nil
}

// httpHandler builds the front around mcp-go's streamable HTTP server, and
// returns with it the function that ends every session at shutdown.
func (s *Server) httpHandler(cfg HTTPConfig) (*front, func(context.Context)) {
	lim := cfg.Limits.withDefaults()
	sess := newSessions(lim.MaxSessions, lim.SessionIdle)
	inner := server.NewStreamableHTTPServer(s.mcp,
		// Through the resolver, the table learns the id made for an
		// initialize request whose answer is never written (withMade).
		server.WithSessionIdManagerResolver(sess),
		// The front checks Host and Origin against loopback and the public
		// URL; mcp-go's own check knows only loopback.
		server.WithDisableLocalhostProtection(true),
		server.WithSessionIdleTTL(lim.SessionTTL),
		server.WithHeartbeatInterval(30*time.Second),
		server.WithStreamableHTTPLogger(logger(cfg.Log)),
	)
	f := newFront(cfg, cfg.Listener.Addr(), sess, inner)
	f.refused = func(ctx context.Context, tool string, args any, code abi.Code) {
		s.refused(s.inSession(ctx), tool, args, code)
	}
	f.forget = s.hs.forget
	f.jobs = s.host
	f.direct = httpCalls{s: s, ttl: lim.SessionTTL}
	return f, inner.CloseSessions
}

// newFront wraps an MCP handler in the front of a server listening on
// addr.
func newFront(cfg HTTPConfig, addr net.Addr, sess *sessions, inner http.Handler) *front {
	f := &front{
		origins:  newOrigins(addr, cfg.PublicURL),
		auth:     newAuthenticator(cfg.Token, cfg.OAuth),
		oauth:    cfg.OAuth,
		sessions: sess,
		streams:  newStreams(cfg.Limits.withDefaults().MaxStreams),
		limits:   cfg.Limits.withDefaults(),
		mcp:      inner,
		log:      logger(cfg.Log),
		ids:      newIDMap(),
		busy:     newBusy(cfg.Limits.withDefaults().MaxConns),
	}
	f.bodies.max = f.limits.MaxBodies
	return f
}

func logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l
}

package mcpserver

import (
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/host"
)

// A tools/call POST of an established session is served by juju's front
// itself, as the stdio loop serves a tools/call line: through mcp-go's
// HandleMessage in the session mcp-go registered at initialize, the answer
// written by juju as JSON (appendAnswer), the same bytes mcp-go writes.
// mcp-go's POST handler around HandleMessage decodes the body twice more,
// starts a goroutine per POST to forward notifications and server requests
// on an SSE stream, and encodes the answer through a json.Encoder: per call
// about as much CPU as juju's own front (docs/RATIONALE.md, line 3h).
//
// A call goes to mcp-go as before whenever what that goroutine is for may
// happen, or mcp-go keeps state juju cannot:
//   - the owner may be asked in the client (its question goes out on the
//     POST's SSE stream, which only mcp-go can pair with the answer): the
//     client took form elicitation and the tool's tier needs approval in
//     this trust mode;
//   - a notification may be on its way to the session: the catalog changed
//     since the session was registered (mcp-go then answers the session's
//     POSTs as event streams, its list_changed among them), or one waits;
//   - mcp-go's idle sweep has not seen the session for touchShare of its
//     TTL: mcp-go counts a session's activity by the requests it serves;
//   - anything mcp-go refuses before the call: a Content-Type other than
//     application/json, a protocol version it does not know, a session it
//     has not registered (yet), and every request of the stateless
//     protocol (2026-07-28).
//
// The rest is the front's, unchanged, for both paths: the token, the
// session's owner, body limits, the busy share, id swaps, revocation and
// cancellation (cutWriter).

// directSessions are mcp-go's registered sessions, by id, for the calls
// juju serves itself.
type directSessions struct {
	by sync.Map // id → *directSession
	// gen counts the catalog's changes: odd while mcp-go's tools are
	// being replaced (and list_changed sent to every session), even
	// otherwise.
	gen atomic.Uint64
}

// directSession is one of mcp-go's registered sessions.
type directSession struct {
	session server.ClientSession
	gen     uint64       // directSessions.gen when it was registered
	passed  atomic.Int64 // when mcp-go last served a request of it (Unix ns)
}

// touchShare is the part of mcp-go's session TTL after which a session's
// next call goes through mcp-go, which counts it as active.
const touchShare = 4

// track keeps the sessions mcp-go registers.
func (d *directSessions) track(hk *server.Hooks) {
	hk.AddOnRegisterSession(func(_ context.Context, s server.ClientSession) {
		e := &directSession{session: s, gen: d.gen.Load()}
		e.passed.Store(time.Now().UnixNano())
		d.by.Store(s.SessionID(), e)
	})
	hk.AddOnRequestInitialization(func(ctx context.Context, _ any, _ any) error {
		if !served(ctx) {
			d.passedOn(sessionID(ctx)) // mcp-go's POST handler counted it
		}
		return nil
	})
	hk.AddOnUnregisterSession(func(_ context.Context, s server.ClientSession) {
		if v, ok := d.by.Load(s.SessionID()); ok && v.(*directSession).session == s {
			d.by.CompareAndDelete(s.SessionID(), v)
		}
	})
}

// passedOn records that mcp-go served a request of session id.
func (d *directSessions) passedOn(id string) {
	if v, ok := d.by.Load(id); ok {
		v.(*directSession).passed.Store(time.Now().UnixNano())
	}
}

// sessionKey carries the id of the HTTP session a request names.
type sessionKey struct{}

// withSession records in ctx the session id a request names.
func withSession(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, sessionKey{}, id)
}

// inSession is ctx, of a request the front refuses itself, with the
// mcp-go session the request named, when mcp-go registered it: the audit
// then names the call's client as it names those mcp-go serves, where it
// named none.
func (s *Server) inSession(ctx context.Context) context.Context {
	id, _ := ctx.Value(sessionKey{}).(string)
	if id == "" {
		return ctx
	}
	v, ok := s.direct.by.Load(id)
	if !ok {
		return ctx
	}
	return s.mcp.WithContext(ctx, v.(*directSession).session)
}

// directKey marks the context of a call juju serves itself.
type directKey struct{}

// served reports whether ctx is that of a call juju serves itself.
func served(ctx context.Context) bool { return ctx.Value(directKey{}) != nil }

// httpCalls serves tools/call POSTs for the front (front.direct).
type httpCalls struct {
	s   *Server
	ttl time.Duration // mcp-go's session TTL
}

// serveCall implements directCalls: it serves the tools/call body, tool
// its tool's name, of the request r, and reports false, having written
// nothing, when the call is mcp-go's to serve (above). started is called
// as the answer starts.
func (c httpCalls) serveCall(ctx context.Context, w http.ResponseWriter, r *http.Request, body []byte, tool string, swap idSwap, started func()) bool {
	s := c.s
	id := r.Header.Get(server.HeaderKeySessionID)
	if id == "" || !jsonContent(r.Header.Get("Content-Type")) {
		return false
	}
	if v := r.Header.Get(mcp.HeaderProtocolVersion); v != "" && !mcp.IsValidProtocolVersion(v) {
		return false
	}
	v, ok := s.direct.by.Load(id)
	if !ok {
		return false
	}
	e := v.(*directSession)
	if time.Duration(time.Now().UnixNano()-e.passed.Load()) > c.ttl/touchShare {
		return false
	}
	s.sync() // as the call's hook would: a catalog changed is sent to the session
	if g := s.direct.gen.Load(); g%2 != 0 || g != e.gen || len(e.session.NotificationChannel()) > 0 {
		return false
	}
	if s.mayAsk(e.session, tool) {
		return false
	}
	ctx = context.WithValue(s.mcp.WithContext(ctx, e.session), directKey{}, true)
	resp := s.mcp.HandleMessage(ctx, body)
	if ctx.Err() != nil {
		// As mcp-go: nothing is written; the front answers a request it
		// cut (cutWriter.endCut), net/http one whose client hung up.
		return true
	}
	started()
	if resp == nil {
		w.WriteHeader(http.StatusAccepted)
		return true
	}
	b, ok := s.appendAnswer(make([]byte, 0, 1024), resp)
	if !ok {
		var err error
		if b, err = json.Marshal(resp); err != nil {
			s.host.Logger().Error("encoding the answer to a tools/call", "err", err)
			return true
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(swap.apply(append(b, '\n'))) // a json.Encoder's newline, as mcp-go writes it
	return true
}

// mayAsk reports whether a call to tool in session may ask the owner in
// the client: the client takes form elicitation and the tool's tier needs
// the owner's approval in this trust mode (a tool not in the catalog may).
func (s *Server) mayAsk(session server.ClientSession, tool string) bool {
	cfg := s.host.Config()
	if cfg.TerminalApprovalsOnly {
		return false
	}
	sess, ok := session.(server.SessionWithClientInfo)
	if !ok || !formElicitation(sess.GetClientCapabilities().Elicitation) {
		return false
	}
	t, ok := s.host.Tool(tool)
	return !ok || host.NeedsApproval(cfg.Mode, t.Spec.Tier)
}

// jsonContent reports whether a Content-Type is JSON's, as mcp-go reads it.
func jsonContent(v string) bool {
	if v == "application/json" {
		return true
	}
	t, _, err := mime.ParseMediaType(v)
	return err == nil && t == "application/json"
}

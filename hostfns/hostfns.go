// Package hostfns defines the shape every juju host function shares. Each
// capability has its own subpackage (fs, journal, state, exec, git, search,
// discover, sysinfo, approvals) that returns a list of Func values; the plugin runtime in host/plugin
// turns them into wasm imports, checks the calling plugin's grants before any
// handler runs, and never lets a handler's failure reach the plugin as
// anything but an abi.Error.
package hostfns

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// Func is one host function as plugins import it.
type Func struct {
	// Name is the export name in abi.HostNamespace, e.g. abi.FnFSRead.
	Name string
	// Capability is the grant a caller needs; empty means none.
	Capability abi.Capability
	// Handle serves one call. It gets the request frame's header and body and
	// returns the response frame's header and body. It never panics on bad
	// input: a header it cannot decode is an abi.InvalidArgument error.
	Handle func(ctx context.Context, header, body []byte) (respHeader, respBody []byte)
}

// Caller identifies who is calling a host function. The runtime puts it in
// the context of every plugin call.
type Caller struct {
	Plugin string // plugin name from its manifest
	Tool   string // the tool being served
	Tier   string // the tool's tier (abi.TierRead, TierEdit, TierExec)
	Client string // the MCP client's name, when known
	CallID string // the audit id of the tool call; the journal records it with every change
	// Principal holds what the call keeps beyond it: "" for the owner's
	// local clients, an OAuth client's id over HTTP (host.Request).
	Principal string
	// Session is the MCP session the call came in on: mcp-go's
	// Mcp-Session-Id over HTTP, "stdio" for the one session of a stdio
	// process. What the client has read is its session's (journal.Reader):
	// two conversations of one client are two views of the files.
	Session string
	// Discovery is set for a task discoverer (hostfns/discover): it
	// reads build files and must run no project code, so beyond its tier
	// R it may not start a language server either.
	Discovery bool
	// Space is the state space of the plugin's install (installed.Grants):
	// its state lives apart from that of any plugin once installed under
	// its name. Empty for the core plugins and older installs.
	Space string
	// Arrived is when the client's call reached juju, Began when its tool
	// began to run, after any wait for the owner's approval (both zero
	// when unknown): a client gives up on a call counted from its arrival,
	// so the command host functions count their background-after limit
	// from it (hostfns/exec).
	Arrived, Began time.Time
}

type callerKey struct{}

// WithCaller returns a context carrying c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the Caller in ctx, if any.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok
}

// Made is what the host functions of one plugin call made that stays
// made whatever happens to the call (journal changes, by id). The runtime
// gives each call one (WithMade): a call stopped at its deadline after a
// host function committed a change says so, instead of "stopped", so the
// change is not made twice.
type Made struct {
	mu  sync.Mutex
	ids []string
}

type madeKey struct{}

// WithMade returns a context carrying a new, empty Made.
func WithMade(ctx context.Context) (context.Context, *Made) {
	m := &Made{}
	return context.WithValue(ctx, madeKey{}, m), m
}

// NoteMade records, in the Made of ctx (if any), that id was made.
func NoteMade(ctx context.Context, id string) {
	if m, ok := ctx.Value(madeKey{}).(*Made); ok && id != "" {
		m.mu.Lock()
		m.ids = append(m.ids, id)
		m.mu.Unlock()
	}
}

// IDs returns what was made, in order.
func (m *Made) IDs() []string {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.ids...)
}

// Typed adapts a handler over typed requests and results into Func.Handle.
// The request header is decoded strictly (unknown fields are an error); the
// result is the header of the response. A non-nil *abi.Error replaces the
// result with {"error": …}.
func Typed[Req any, Res any](h func(ctx context.Context, req *Req, body []byte) (*Res, []byte, *abi.Error)) func(context.Context, []byte, []byte) ([]byte, []byte) {
	return func(ctx context.Context, header, body []byte) ([]byte, []byte) {
		var req Req
		if err := decodeStrict(header, &req); err != nil {
			return ErrorHeader(abi.Errorf(abi.InvalidArgument, "the host function request could not be decoded: %v", err)), nil
		}
		return Answer(h(ctx, &req, body))
	}
}

// Codec decodes a host function's request and encodes its answer without
// encoding/json's reflection, for the functions every small tool call
// makes (Append may be nil: encoding/json writes every answer). Each
// reports false to leave the work to encoding/json, which then
// gives the same result (a decoder that declines, say, an unknown field
// leaves decodeStrict to say what was wrong).
type Codec[Req, Res any] struct {
	Decode func(header []byte, req *Req) bool
	Append func(b []byte, res *Res) ([]byte, bool)
}

// TypedCodec is Typed with c tried first on each request and answer.
func TypedCodec[Req any, Res any](c Codec[Req, Res], h func(ctx context.Context, req *Req, body []byte) (*Res, []byte, *abi.Error)) func(context.Context, []byte, []byte) ([]byte, []byte) {
	return func(ctx context.Context, header, body []byte) ([]byte, []byte) {
		var req Req
		if !c.Decode(header, &req) {
			req = *new(Req)
			if err := decodeStrict(header, &req); err != nil {
				return ErrorHeader(abi.Errorf(abi.InvalidArgument, "the host function request could not be decoded: %v", err)), nil
			}
		}
		res, out, e := h(ctx, &req, body)
		return AnswerCodec(c.Append, res, out, e)
	}
}

// AnswerCodec is Answer with appendRes, when not nil, tried first.
func AnswerCodec[Res any](appendRes func([]byte, *Res) ([]byte, bool), res *Res, out []byte, e *abi.Error) ([]byte, []byte) {
	if e == nil && res != nil && appendRes != nil {
		if b, ok := appendRes(make([]byte, 0, 192), res); ok {
			return b, out
		}
	}
	return Answer(res, out, e)
}

// Answer is the response frame of a handler's outcome: res's JSON and out,
// or {"error": …} when e is not nil.
func Answer[Res any](res *Res, out []byte, e *abi.Error) ([]byte, []byte) {
	if e != nil {
		return ErrorHeader(e), nil
	}
	b, err := json.Marshal(res)
	if err != nil {
		return ErrorHeader(abi.Errorf(abi.Internal, "the host could not encode its answer")), nil
	}
	return b, out
}

// ErrorHeader encodes the response header of a failed call.
func ErrorHeader(e *abi.Error) []byte {
	b, err := json.Marshal(abi.Status{Error: e})
	if err != nil { // cannot happen for two strings
		return []byte(fmt.Sprintf(`{"error":{"code":%q,"message":"error"}}`, abi.Internal))
	}
	return b
}

// Millis is n milliseconds, at most limit: a count of milliseconds large
// enough to overflow time.Duration is limit, not a negative duration.
func Millis(n int64, limit time.Duration) time.Duration {
	if n >= int64(limit/time.Millisecond) {
		return limit
	}
	return time.Duration(n) * time.Millisecond
}

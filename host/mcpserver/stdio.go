package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/sdk/abi"
)

// ServeStdio serves MCP over in and out until in ends or ctx is done.
// out carries only JSON-RPC; logs go to the host's logger.
//
// tools/call requests, nearly all of a session's traffic, tools/list and
// initialize requests are served by juju's own loop (stdioLoop); every
// other message
// goes on to mcp-go's stdio server, which keeps the session (the
// handshake, notifications, the requests juju sends the client, such as
// elicitations, and their answers).
func ServeStdio(ctx context.Context, h *host.Host, in io.Reader, out io.Writer, errLog *log.Logger) error {
	s, err := New(h)
	if err != nil {
		return err
	}
	// The tools/list answer is encoded beside the client's initialize, so
	// that the first tools/list, which comes right after it, finds it ready.
	go s.listing().encoded()
	f := newInflight()
	w := &answerWriter{w: out, f: f, asked: newQuestions()}
	s.asked, s.askedOut = w.asked, w
	fromClient, toMCP := io.Pipe()
	d := &stdioLoop{
		s: s, w: w, fwd: toMCP, errLog: errLog,
		sessionMade: make(chan struct{}),
		listenEnded: make(chan struct{}),
		slots:       make(chan struct{}, maxStdioCalls),
		ended:       make(chan error, 1),
	}
	d.warmNow = s.warmAfterHandshake(ctx, warmDelay, stdioWarmLatest)
	d.l = newLineReader(ctx, in, f, d.tooLarge)
	d.l.atEnd = w.asked.inputEnded
	std := server.NewStdioServer(s.mcp)
	std.SetErrorLogger(errLog)
	server.WithStdioContextFunc(func(ctx context.Context) context.Context {
		d.session = ctx
		close(d.sessionMade)
		return ctx
	})(std)
	listened := make(chan error, 1)
	go func() {
		err := std.Listen(ctx, fromClient, w)
		close(d.listenEnded)
		fromClient.CloseWithError(errors.Join(err, errListenEnded))
		listened <- err
	}()
	go d.read()
	var readErr error
	select {
	case readErr = <-d.ended:
	case <-ctx.Done():
	}
	if errors.Is(readErr, io.EOF) {
		readErr = nil
	}
	toMCP.CloseWithError(readErr)
	err = <-listened
	d.calls.Wait()
	if err == nil && !errors.Is(readErr, errListenEnded) {
		err = readErr
	}
	return err
}

// maxStdioCalls bounds the tool calls served at once over stdio; past it,
// juju reads no more input until one ends.
const maxStdioCalls = 32

// errListenEnded ends the read loop when mcp-go's server stopped first.
var errListenEnded = errors.New("the stdio server ended")

// stdioLoop reads the client's messages. A tools/call, tools/list or
// initialize request is served on the goroutine that read it, so the call's path from
// stdin to stdout crosses no goroutine; mcp-go's stdio server hands each
// message from a reading goroutine to its loop and each call on to a
// worker, each hand-off a thread woken (about 80 µs of a tiny read_file's
// 0.35 ms, measured over a pipe). When the call is over, the same
// goroutine reads on; when it takes longer than handOffAfter, a new
// goroutine takes over the reading, so that calls run side by side and a
// ping or a cancellation is never held behind a long call. Only one
// goroutine reads at a time. Any other message is written, in order, to
// mcp-go's stdio server.
type stdioLoop struct {
	s      *Server
	l      *lineReader
	w      *answerWriter
	fwd    *io.PipeWriter // to mcp-go's stdio server
	errLog *log.Logger

	session     context.Context // the stdio session's, once sessionMade is closed
	sessionMade chan struct{}
	listenEnded chan struct{}  // closed when mcp-go's server has stopped
	slots       chan struct{}  // one per tool call being served
	calls       sync.WaitGroup // the tool calls being served
	ended       chan error     // why reading stopped
	warmNow     func()         // compiles the plugins in the background, once
	// serving holds, by id as the client wrote it, a flag for each request
	// the loop is serving, set when the client cancels it: its answer is
	// then not sent. (A client names the request in its cancellation as it
	// wrote it in the request; the raw form keeps idKey off the hot path.)
	serving sync.Map
	// pending holds, by id as the client wrote it, a flag for each request
	// of a batch whose turn has not come, set when the client cancels it:
	// it is then not served (serveBatch).
	pending sync.Map
	batches atomic.Uint64 // the batches read, for their keys in the inflight set

	waitMu       sync.Mutex
	waiting      int // tool calls waiting for a slot
	waitingBytes int // their messages' bytes
}

// handOffAfter is how long a tool call may keep the reading to itself. A
// hand-off wakes a thread and grows a new goroutine's stack: 0.1-0.4 ms of
// a 1 ms list_directory on 2 cores, so calls of a few milliseconds (lists,
// read_files, most edits) keep the reading, and what comes behind them
// waits at most that long.
const handOffAfter = 2 * time.Millisecond

// read reads messages, serving the tools/call, tools/list and initialize
// requests among them, until the input ends or another goroutine has
// taken over the reading.
func (d *stdioLoop) read() {
	for {
		line, head, err := d.l.next()
		if err != nil {
			d.ended <- err
			return
		}
		if blank(line) {
			continue
		}
		switch {
		case head.badID:
			d.writeAnswer(invalidRequest(nil, badIDMessage))
			continue
		case head.badShape, head.badVersion, head.badMethod:
			msg := badShapeMessage
			switch {
			case head.badVersion:
				msg = badVersionMessage
			case head.badMethod:
				msg = badMethodMessage
			}
			d.writeAnswer(invalidRequest(asWritten(head.ID), msg))
			continue
		case head.deep:
			d.deepAnswer(head)
			continue
		case head.strayParams:
			continue
		case isBatch(line):
			if v := d.protocol(); !batchesAllowed(v) {
				d.writeAnswer(batchRefusal(v))
				continue
			}
			d.startBatch(line)
			continue
		}
		if (head.Method == string(mcp.MethodToolsCall) || head.Method == string(mcp.MethodToolsList)) && head.request() {
			if !d.serveReading(line, head) {
				return
			}
			continue
		}
		if head.Method == string(mcp.MethodInitialize) && head.request() && d.initialized() {
			// The session's client, as the audit names it, and its
			// protocol are those of its first initialize: a second would
			// have mcp-go take another's name mid-session.
			d.writeAnswer(invalidRequest(asWritten(head.ID), "this session is already initialized, and keeps the client name and protocol version its first initialize gave; to begin again, start a new juju process"))
			continue
		}
		if head.Method == string(mcp.MethodInitialize) && head.request() {
			// Served here too, as mcp-go's server would serve it: handed
			// on, it crossed a pipe and three goroutines, and mcp-go
			// decoded it five times, at the start of a process whose
			// every first touch is dear (RATIONALE).
			d.calls.Add(1)
			d.serve(line, head, d.markServing(head))
			continue
		}
		if !bytes.HasSuffix(line, []byte("\n")) {
			line = append(line, '\n') // a last line without its newline
		}
		if !head.request() && mayCancel(line) {
			// A notification: one with an id is a request, which mcp-go
			// answers "method not found" and which cancels nothing.
			line = d.noteCancel(line) // and on to mcp-go, which stops the call
		}
		if head.request() {
			// mcp-go serves each request on a goroutine of its own, which
			// waits to write its answer: a client that sends pings and
			// never reads would grow them without end. Past maxPending
			// requests unanswered, juju reads on only as answers go out.
			d.l.f.waitBelow(d.l.ctx, maxPending)
		}
		if !head.request() && head.Method == "" && len(head.ID) > 0 {
			d.w.asked.answered(head.ID) // a response: perhaps to a question
		}
		if _, err := d.fwd.Write(line); err != nil {
			d.ended <- err
			return
		}
	}
}

// blank reports whether a line holds only JSON's whitespace: no message,
// as a client that ends its messages with a blank line or an operator's
// `echo | juju stdio` writes, so no answer either: the stdio transport's
// messages are JSON-RPC, one a line. mcp-go's stdio server answered each
// with a parse error of id null, which a client cannot tie to any request.
func blank(line []byte) bool {
	return len(bytes.Trim(line, " \t\r\n")) == 0
}

// tooLarge answers a message discarded for its size, from its first bytes
// (tooLargeAnswer). A tool call so refused is audited as every refused
// call is.
func (d *stdioLoop) tooLarge(head []byte) {
	h := readDiscardedHead(head)
	if h.id != nil && h.method == string(mcp.MethodToolsCall) {
		d.s.refused(d.sessionContext(), h.tool, nil, abi.TooLarge)
	}
	if _, err := d.w.Write(tooLargeAnswer(h, MaxMessage)); err != nil {
		d.errLog.Printf("answering a message over %d bytes: %v", MaxMessage, err)
	}
}

// deepAnswer answers a request nested too deep to read, with its id: a
// tools/call with an INVALID_ARGUMENT result, audited as every refused
// call is, which the model reads and acts on; another request with an
// invalid-request error.
func (d *stdioLoop) deepAnswer(head msgHead) {
	d.writeAnswer(d.deepRefusal(head))
}

// deepRefusal is the answer to a request nested too deep to read, alone
// or in a batch; a tools/call is audited as refused.
func (d *stdioLoop) deepRefusal(head msgHead) any {
	answer, call := deepAnswer(head)
	if call {
		d.s.refused(d.sessionContext(), head.tool, nil, abi.InvalidArgument)
	}
	return answer
}

// deepAnswer is the answer to head, a request nested too deep to read
// (deepHead), over stdio or HTTP: a tools/call gets an INVALID_ARGUMENT
// result, which the model reads and acts on, and call reports it, to be
// audited as refused; another request an invalid-request error.
func deepAnswer(head msgHead) (answer any, call bool) {
	id := asWritten(head.ID)
	if head.Method != string(mcp.MethodToolsCall) {
		return invalidRequest(id, deepMessage), false
	}
	tool := "the tool"
	if head.tool != "" {
		tool = head.tool
	}
	return mcp.JSONRPCResponse{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(id),
		Result: toMCP(&abi.CallResult{Error: abi.Errorf(abi.InvalidArgument,
			"the arguments of %s are nested deeper than 10,000 arrays and objects, more than juju reads; no input schema nests that deep, so send them flatter and call again", abi.Cut(tool, 200))}),
	}, true
}

// serveReading serves a tools/call or tools/list request and reports
// whether the reading is still this goroutine's: it is handed on to a new
// goroutine when the call takes longer than handOffAfter.
func (d *stdioLoop) serveReading(line []byte, head msgHead) bool {
	select {
	case d.slots <- struct{}{}:
	default:
		// maxStdioCalls calls are running: the reading goes on, so that
		// pings and cancellations are read, and this call waits for a
		// slot on a goroutine of its own, or, past maxStdioWaiting, is
		// refused.
		switch {
		case head.Method == string(mcp.MethodToolsList):
			d.calls.Add(1)
			d.serve(line, head, d.markServing(head)) // short, and the client needs it
		case !d.wait(line, head):
			d.busy(line, head)
		}
		return true
	}
	defer func() { <-d.slots }()
	d.calls.Add(1)
	var taken atomic.Bool
	t := time.AfterFunc(handOffAfter, func() {
		if taken.CompareAndSwap(false, true) {
			d.read()
		}
	})
	d.serve(line, head, d.markServing(head))
	t.Stop()
	return taken.CompareAndSwap(false, true)
}

// maxPending bounds the requests read and not yet answered before juju
// stops reading until answers go out (tool calls are bounded apart, and
// well below it).
const maxPending = 1024

// maxStdioWaiting bounds the tool calls waiting for a slot, and
// maxWaitingBytes their messages together.
const (
	maxStdioWaiting = 256
	maxWaitingBytes = 64 << 20
)

// wait serves the call on a goroutine of its own once a slot is free, and
// reports false when too many calls (or bytes) wait already. A call the
// client cancels while it waits is dropped unanswered when its turn comes.
func (d *stdioLoop) wait(line []byte, head msgHead) bool {
	if !d.reserveWait(len(line)) {
		return false
	}
	d.calls.Add(1)
	cancelled := d.markServing(head)
	go func() {
		d.slots <- struct{}{}
		defer func() { <-d.slots }()
		d.endWait(len(line))
		d.serve(line, head, cancelled)
	}()
	return true
}

// reserveWait counts a message of n bytes as waiting for a slot, unless
// maxStdioWaiting messages or maxWaitingBytes bytes wait already.
func (d *stdioLoop) reserveWait(n int) bool {
	d.waitMu.Lock()
	defer d.waitMu.Unlock()
	if d.waiting+1 > maxStdioWaiting || d.waitingBytes+n > maxWaitingBytes {
		return false
	}
	d.waiting++
	d.waitingBytes += n
	return true
}

// endWait counts a message of n bytes as no longer waiting.
func (d *stdioLoop) endWait(n int) {
	d.waitMu.Lock()
	defer d.waitMu.Unlock()
	d.waiting--
	d.waitingBytes -= n
}

// markServing records the request as being served (or waiting to be), so
// that a cancellation naming it flags it; serve forgets it.
func (d *stdioLoop) markServing(head msgHead) *atomic.Bool {
	cancelled := new(atomic.Bool)
	d.serving.Store(string(head.ID), cancelled)
	return cancelled
}

// sessionContext is the stdio session's context once it is made.
func (d *stdioLoop) sessionContext() context.Context {
	select {
	case <-d.sessionMade:
		return d.session
	default:
		return context.Background()
	}
}

// busy answers a tool call that comes while maxStdioCalls calls are
// running and maxStdioWaiting wait: a TOO_LARGE result with its id,
// audited as a refused call.
func (d *stdioLoop) busy(line []byte, head msgHead) {
	var id any
	json.Unmarshal(head.ID, &id)
	tool := readDiscardedHead(line[:min(len(line), headKeep)]).tool
	d.s.refused(d.sessionContext(), tool, nil, abi.TooLarge)
	d.writeAnswer(mcp.JSONRPCResponse{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(id),
		Result: toMCP(&abi.CallResult{Error: abi.Errorf(abi.TooLarge,
			"juju is already running %d tool calls at once on this connection, and %d more wait; wait for some to end (cancel those you no longer need), then call again", maxStdioCalls, maxStdioWaiting)}),
	})
}

// mayCancel reports whether line may be a notifications/cancelled, its
// method written as it is or with escapes ("notifications\/cancelled",
// "\u0063ancelled"), which mcp-go reads all the same: one that reached it
// unread by noteCancel named the client's id, not juju's.
func mayCancel(line []byte) bool {
	return bytes.Contains(line, []byte("cancelled")) || bytes.Contains(line, []byte(`\u`))
}

// noteCancel marks the request a notifications/cancelled names, when the
// loop is serving it, and returns the notification as mcp-go is to read
// it: naming the request by the id juju gave it, if it gave it one.
func (d *stdioLoop) noteCancel(line []byte) []byte {
	var n struct {
		Method string `json:"method"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &n) != nil || n.Method != string(mcp.MethodNotificationCancelled) || len(n.Params.RequestID) == 0 {
		return line
	}
	if flag, ok := d.pending.Load(string(n.Params.RequestID)); ok {
		flag.(*atomic.Bool).Store(true)
	}
	line, id := d.w.f.ids.cancelled(line, n.Params.RequestID, "")
	if flag, ok := d.serving.Load(string(id)); ok {
		flag.(*atomic.Bool).Store(true)
	}
	return line
}

// serve answers one tools/call, tools/list or initialize request through
// mcp-go's server, in the stdio session. A request the client cancelled meanwhile
// gets no answer, as MCP asks of a receiver: the client has given it up.
func (d *stdioLoop) serve(line []byte, head msgHead, cancelled *atomic.Bool) {
	defer d.calls.Done()
	defer d.serving.CompareAndDelete(string(head.ID), cancelled)
	if cancelled.Load() { // while it waited for a slot
		d.w.f.ids.forget(head.ID)
		d.w.f.done(idKey(head.ID))
		return
	}
	var resp mcp.JSONRPCMessage
	select {
	case <-d.sessionMade:
		gen, noted := d.s.direct.gen.Load(), d.w.nextNote()
		resp = d.handle(d.session, line, head)
		if d.s.direct.gen.Load() != gen {
			d.awaitNotifications(noted)
		}
	case <-d.listenEnded: // it stopped before it made the session
		resp = internalError(head, "juju's MCP session has ended")
	}
	if head.Method == string(mcp.MethodToolsList) {
		defer d.warmNow() // once the client has its tools: see warmAfterHandshake
	}
	b, ok := d.s.appendAnswer(make([]byte, 0, 1024), resp)
	if !ok {
		var err error
		if b, err = json.Marshal(resp); err != nil {
			d.errLog.Printf("encoding the answer to %s: %v", head.Method, err)
			b, _ = json.Marshal(internalError(head, "juju could not encode the answer"))
		}
	}
	if cancelled.Load() {
		d.w.f.ids.forget(head.ID)
		d.w.f.done(idKey(head.ID)) // answered, as far as the end of the input is concerned
		return
	}
	if _, err := d.w.Write(append(b, '\n')); err != nil {
		d.errLog.Printf("writing the answer to %s: %v", head.Method, err)
	}
}

// handle runs the request in mcp-go's server; a panic that escapes it is
// answered with an internal error carrying the request's id.
func (d *stdioLoop) handle(ctx context.Context, line []byte, head msgHead) (resp mcp.JSONRPCMessage) {
	defer func() {
		if r := recover(); r != nil {
			d.errLog.Printf("panic serving a tool call: %v", r)
			resp = internalError(head, fmt.Sprintf("internal panic: %v", r))
		}
	}()
	if !isToolsCall(head) {
		return d.s.mcp.HandleMessage(ctx, line)
	}
	ctx, line = readableCall(ctx, line)
	return clearerRefusal(d.s.mcp.HandleMessage(ctx, line), line, head)
}

// initialized reports whether the session has had its initialize
// answered.
func (d *stdioLoop) initialized() bool {
	select {
	case <-d.sessionMade:
		return d.s.hs.initialized(d.session)
	default:
		return false
	}
}

// protocol is the protocol version the session's initialize agreed ("":
// not yet).
func (d *stdioLoop) protocol() string {
	select {
	case <-d.sessionMade:
		return d.s.hs.protocol(d.session)
	default:
		return ""
	}
}

// writeAnswer writes one message of juju's own to the client.
func (d *stdioLoop) writeAnswer(msg any) {
	b, err := json.Marshal(msg)
	if err == nil {
		_, err = d.w.Write(append(b, '\n'))
	}
	if err != nil {
		d.errLog.Printf("writing an answer: %v", err)
	}
}

// asWritten is a request's id as the client wrote it, for an answer of
// juju's own: mcp-go's RequestId writes a json.RawMessage as it is.
func asWritten(raw json.RawMessage) json.RawMessage {
	return json.RawMessage(bytes.TrimSpace(raw))
}

// invalidRequest is the JSON-RPC invalid-request error answering id.
func invalidRequest(id any, msg string) mcp.JSONRPCError {
	return mcp.JSONRPCError{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(id),
		Error:   mcp.NewJSONRPCErrorDetails(mcp.INVALID_REQUEST, msg, nil),
	}
}

// internalError is the JSON-RPC internal error answering the request head.
func internalError(head msgHead, msg string) mcp.JSONRPCError {
	var id any
	json.Unmarshal(head.ID, &id)
	return mcp.JSONRPCError{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(id),
		Error:   mcp.NewJSONRPCErrorDetails(mcp.INTERNAL_ERROR, msg, nil),
	}
}

// answerWriter writes mcp-go's messages (one Write call each: a JSON
// object and a newline) and strikes each answered request off the
// in-flight set, so the reader knows what is still being served.
type answerWriter struct {
	mu sync.Mutex
	w  io.Writer
	f  *inflight
	// noted is closed when a notification has been written, then
	// replaced (nextNote).
	noted chan struct{}
	// asked learns the ids of the questions written (questions).
	asked *questions
}

func (a *answerWriter) Write(b []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	id, ok := responseID(b)
	if !ok {
		n, err := a.w.Write(b)
		if err == nil && a.asked != nil {
			a.asked.wrote(b)
		}
		if err == nil && bytes.HasPrefix(b, []byte(`{"jsonrpc":"2.0","method":"notifications/`)) {
			if a.noted != nil {
				close(a.noted)
			}
			a.noted = make(chan struct{})
		}
		return n, err
	}
	defer a.f.done(id)
	n := len(b)
	if _, err := a.w.Write(a.f.ids.restore(b)); err != nil {
		return 0, err
	}
	return n, nil
}

// nextNote returns a channel closed once the next notification is written.
func (a *answerWriter) nextNote() <-chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.noted == nil {
		a.noted = make(chan struct{})
	}
	return a.noted
}

// listChangedWait bounds how long an answer waits for the
// notifications/tools/list_changed queued before it; listChangedGrace how
// long it waits for one that may be on its way out of the queue already.
const (
	listChangedWait  = 2 * time.Second
	listChangedGrace = 50 * time.Millisecond
)

// awaitNotifications holds the answer to a request during which the
// catalog changed (its hook reloaded the installed plugins: an install or
// a removal in another terminal) until the notifications queued for the
// session are written, notifications/tools/list_changed among them: mcp-go
// queues it and writes it from a goroutine of its own, and the answer,
// written at once, came first about half the time, so that a client
// calling a tool just removed read "tool not found" for a tool it still
// listed, and heard why only after (TestInstallUpdateRemoveWhileServing).
// noted is nextNote from before the request was served. The wait ends when
// the queue is empty and a notification was written since, or, where none
// was, after listChangedGrace (one taken from the queue may still be on
// its way: a session of 2026-07-28 that did not subscribe gets none); it
// never lasts past listChangedWait.
func (d *stdioLoop) awaitNotifications(noted <-chan struct{}) {
	sess := server.ClientSessionFromContext(d.session)
	if sess == nil {
		return
	}
	queue := sess.NotificationChannel()
	limit := time.NewTimer(listChangedWait)
	defer limit.Stop()
	wrote := false
	for {
		if len(queue) == 0 {
			if wrote {
				return
			}
			grace := time.NewTimer(listChangedGrace)
			select {
			case <-noted:
			case <-grace.C:
			case <-limit.C:
			}
			grace.Stop()
			return
		}
		select {
		case <-noted:
			wrote, noted = true, d.w.nextNote()
		case <-limit.C:
			return
		}
	}
}

// warmDelay is how long juju waits for the client's handshake before it
// compiles its plugins anyway (clients of the stateless protocol send none).
const warmDelay = 100 * time.Millisecond

// stdioWarmLatest bounds the wait for a stdio client's handshake.
const stdioWarmLatest = time.Second

// warmAfterHandshake compiles the plugins in the background, once: after
// notifications/initialized (a notification sent before initialize is
// ignored, as every notification is then) and then afterInitialized, or
// latest after juju started, whichever comes first, so that compiling
// never competes with the answer to initialize. A call that comes earlier
// compiles its plugin itself. It returns the warm-up, for an earlier start.
//
// Over HTTP it starts on notifications/initialized, or warmDelay after
// start. Over stdio a client sends tools/list right after
// notifications/initialized, and a compilation running beside it made the
// answer (126 KB for the core catalog) five times slower, 8 → 45 ms on 2
// cores: the stdio loop starts it once the first tools/list is answered,
// and otherwise it starts warmDelay after notifications/initialized, or
// stdioWarmLatest after start.
func (s *Server) warmAfterHandshake(ctx context.Context, afterInitialized, latest time.Duration) func() {
	var once sync.Once
	warm := func() { once.Do(func() { s.host.Warm(ctx) }) }
	s.mcp.AddNotificationHandler(string(mcp.MethodNotificationInitialized), func(ctx context.Context, _ mcp.JSONRPCNotification) {
		if s.hs.initialized(ctx) {
			time.AfterFunc(afterInitialized, warm)
		}
	})
	time.AfterFunc(latest, warm)
	return warm
}

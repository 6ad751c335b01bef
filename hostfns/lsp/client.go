package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	jexec "github.com/jujutools/juju/hostfns/exec"
	"github.com/jujutools/juju/internal/lspconfig"
)

// client is one running language server: a registration over one root.
type client struct {
	m       *Manager
	reg     lspconfig.Server
	root    string // the server's root folder, absolute and symlink-free
	cmd     *osexec.Cmd
	conn    *jsonrpc2.Conn
	exited  chan struct{} // closed once the process has exited and been reaped
	stderr  *tail
	started time.Time

	enc       encoding
	pullCap   bool           // diagnosticProvider in the initialize answer
	wsSymbols bool           // workspaceSymbolProvider
	readyLog  *regexp.Regexp // a log message that ends the first analysis; nil: none expected

	// syncMu serialises what juju sends about documents (open, flush), so
	// versions reach the server in order.
	syncMu sync.Mutex

	mu          sync.Mutex
	changed     chan struct{}     // closed and replaced on every change of the state below
	progress    map[string]bool   // work-done progress tokens begun and not ended
	pullRegs    map[string]bool   // ids of textDocument/diagnostic registrations
	sawReadyLog bool              // readyLog was seen
	gen         uint64            // bumped by every change juju sends
	pushed      map[string]pushed // last publishDiagnostics by URI
	pulled      map[string]pulledReport
	docs        map[string]*openDoc // open documents by URI
	dirty       map[string]int      // absolute paths juju wrote since the last query → file event type
	dead        bool
}

// pushed is one publishDiagnostics as received.
type pushed struct {
	version *int
	gen     uint64 // the client's gen when it arrived
	items   []diagnostic
}

type pulledReport struct {
	resultID string
	items    []diagnostic
}

// readySignals are the log messages that tell the end of a server's first
// analysis, by the server's name: pyright answers workspace symbols with
// nothing until it has found the workspace's files.
var readySignals = map[string]*regexp.Regexp{
	"pyright":      regexp.MustCompile(`(?m)^Found \d+ source files?`),
	"basedpyright": regexp.MustCompile(`(?m)^Found \d+ source files?`),
}

// readySignal returns the ready signal of a server named name (its
// serverInfo) started by command.
func readySignal(name, command string) *regexp.Regexp {
	base := strings.ToLower(filepath.Base(command))
	for _, key := range []string{strings.ToLower(name), strings.TrimSuffix(strings.TrimSuffix(base, "-langserver"), ".js")} {
		if re, ok := readySignals[key]; ok {
			return re
		}
	}
	return nil
}

// pipes is the server's stdout and stdin as one stream.
type pipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipes) Close() error {
	return errors.Join(p.WriteCloser.Close(), p.ReadCloser.Close())
}

// startClient starts the server of reg over root and initializes it. It
// fails with a *startError when the program cannot run or does not answer
// initialize within the manager's InitTimeout.
func (m *Manager) startClient(ctx context.Context, reg lspconfig.Server, root string) (*client, error) {
	prog, err := osexec.LookPath(reg.Command[0])
	if err != nil {
		return nil, &startError{reg: reg.Name, notFound: true, err: err}
	}
	cmd := osexec.Command(prog, reg.Command[1:]...)
	cmd.Dir = root
	cmd.Env = m.env
	cmd.SysProcAttr = jexec.GroupAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, &startError{reg: reg.Name, err: err}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, &startError{reg: reg.Name, err: err}
	}
	c := &client{
		m: m, reg: reg, root: root, cmd: cmd, exited: make(chan struct{}), stderr: newTail(4 << 10),
		changed: make(chan struct{}), progress: map[string]bool{}, pullRegs: map[string]bool{},
		pushed: map[string]pushed{}, pulled: map[string]pulledReport{}, docs: map[string]*openDoc{},
		dirty: map[string]int{}, started: time.Now(),
	}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, &startError{reg: reg.Name, notFound: errors.Is(err, os.ErrNotExist), err: err}
	}
	go func() {
		cmd.Wait()
		c.setDead()
		close(c.exited)
	}()
	stream := jsonrpc2.NewBufferedStream(pipes{stdout, stdin}, jsonrpc2.VSCodeObjectCodec{})
	c.conn = jsonrpc2.NewConn(context.Background(), stream, handler{c}, jsonrpc2.SetLogger(discardLogger{}))
	go func() {
		select {
		case <-c.conn.DisconnectNotify():
		case <-c.exited:
		}
		c.setDead()
	}()

	ictx, cancel := context.WithTimeout(ctx, m.opts.InitTimeout)
	defer cancel()
	var res initializeResult
	err = c.conn.Call(ictx, "initialize", c.initializeParams(), &res)
	if err != nil {
		c.kill()
		se := &startError{reg: reg.Name, err: err, stderr: c.stderr.String()}
		if ictx.Err() != nil && ctx.Err() == nil {
			se.timeout = m.opts.InitTimeout
		}
		return nil, se
	}
	c.enc = encodingNamed(res.Capabilities.PositionEncoding)
	c.pullCap = provided(res.Capabilities.DiagnosticProvider)
	c.wsSymbols = provided(res.Capabilities.WorkspaceSymbolProvider)
	c.readyLog = readySignal(res.ServerInfo.Name, prog)
	if err := c.conn.Notify(ctx, "initialized", struct{}{}); err != nil {
		c.kill()
		return nil, &startError{reg: reg.Name, err: err, stderr: c.stderr.String()}
	}
	m.log.Info("language server started", "server", reg.Name, "root", root, "pid", cmd.Process.Pid,
		"ms", time.Since(c.started).Milliseconds())
	return c, nil
}

// initializeParams is what juju tells a server about itself.
func (c *client) initializeParams() map[string]any {
	uri := fileURI(c.root)
	p := map[string]any{
		"processId":        os.Getpid(),
		"clientInfo":       map[string]any{"name": "juju"},
		"rootUri":          uri,
		"rootPath":         c.root,
		"workspaceFolders": []any{map[string]any{"uri": uri, "name": filepath.Base(c.root)}},
		"capabilities": map[string]any{
			"general": map[string]any{"positionEncodings": []string{"utf-16"}},
			"window":  map[string]any{"workDoneProgress": true},
			"workspace": map[string]any{
				"configuration":          true,
				"workspaceFolders":       true,
				"didChangeWatchedFiles":  map[string]any{"dynamicRegistration": true},
				"symbol":                 map[string]any{"dynamicRegistration": false},
				"didChangeConfiguration": map[string]any{"dynamicRegistration": false},
			},
			"textDocument": map[string]any{
				"synchronization":    map[string]any{"dynamicRegistration": false, "didSave": false},
				"definition":         map[string]any{"linkSupport": true},
				"references":         map[string]any{},
				"documentSymbol":     map[string]any{"hierarchicalDocumentSymbolSupport": true},
				"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": false},
				"diagnostic":         map[string]any{"dynamicRegistration": true, "relatedDocumentSupport": false},
			},
		},
	}
	if c.reg.InitOptions != "" {
		p["initializationOptions"] = json.RawMessage(c.reg.InitOptions)
	}
	return p
}

// startError is a server that could not be started.
type startError struct {
	reg      string
	notFound bool          // no such program
	timeout  time.Duration // initialize not answered in time
	stderr   string
	err      error
}

func (e *startError) Error() string {
	switch {
	case e.notFound:
		return fmt.Sprintf("language server %s: command not found: %v", e.reg, e.err)
	case e.timeout > 0:
		return fmt.Sprintf("language server %s: no answer to initialize within %s", e.reg, e.timeout)
	}
	return fmt.Sprintf("language server %s: %v", e.reg, e.err)
}

func (e *startError) Unwrap() error { return e.err }

// handler serves the server's requests and notifications on the
// connection's read loop: notifications in order, inline (state changes
// only); the answer to a request is computed inline from state and sent
// from a goroutine, so the read loop never waits on a write.
type handler struct{ c *client }

func (h handler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	res, err := h.c.handle(ctx, conn, req)
	if req.Notif {
		return
	}
	go func() {
		if e, ok := err.(*jsonrpc2.Error); ok {
			conn.ReplyWithError(ctx, req.ID, e)
			return
		}
		conn.Reply(ctx, req.ID, res)
	}()
}

// handle serves one message from the server.
func (c *client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p publishDiagnosticsParams
		if json.Unmarshal(params, &p) == nil {
			c.update(func() { c.pushed[p.URI] = pushed{version: p.Version, gen: c.gen, items: p.Diagnostics} })
		}
	case "$/progress":
		var p progressParams
		if json.Unmarshal(params, &p) == nil {
			tok := string(p.Token)
			c.update(func() {
				switch p.Value.Kind {
				case "begin":
					c.progress[tok] = true
				case "end":
					delete(c.progress, tok)
				}
			})
		}
	case "window/logMessage", "window/showMessage":
		var p logMessageParams
		if json.Unmarshal(params, &p) == nil {
			if c.readyLog != nil && c.readyLog.MatchString(p.Message) {
				c.update(func() { c.sawReadyLog = true })
			}
			c.m.log.Debug("language server says", "server", c.reg.Name, "message", p.Message)
		}
	case "workspace/configuration":
		var p configurationParams
		json.Unmarshal(params, &p)
		out := make([]any, len(p.Items)) // null for each: the server's defaults
		return out, nil
	case "client/registerCapability":
		var p registrationParams
		if json.Unmarshal(params, &p) == nil {
			c.update(func() {
				for _, r := range p.Registrations {
					if r.Method == "textDocument/diagnostic" {
						c.pullRegs[r.ID] = true
					}
				}
			})
		}
		return nil, nil
	case "client/unregisterCapability":
		var p unregistrationParams
		if json.Unmarshal(params, &p) == nil {
			c.update(func() {
				for _, r := range p.Unregisterations {
					delete(c.pullRegs, r.ID)
				}
			})
		}
		return nil, nil
	case "window/workDoneProgress/create", "window/showMessageRequest", "window/showDocument",
		"workspace/diagnostic/refresh", "workspace/semanticTokens/refresh", "workspace/inlayHint/refresh",
		"workspace/codeLens/refresh", "workspace/inlineValue/refresh":
		return nil, nil
	case "workspace/workspaceFolders":
		return []any{map[string]any{"uri": fileURI(c.root), "name": filepath.Base(c.root)}}, nil
	case "workspace/applyEdit":
		// A server never changes files behind the journal.
		return map[string]any{"applied": false, "failureReason": "juju applies no edits from language servers"}, nil
	default:
		if !req.Notif {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "juju does not handle " + req.Method}
		}
	}
	return nil, nil
}

// update changes the state under the lock and wakes every waiter.
func (c *client) update(f func()) {
	c.mu.Lock()
	f()
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

func (c *client) setDead() { c.update(func() { c.dead = true }) }

func (c *client) isDead() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dead
}

// pulls reports whether diagnostics are asked for rather than awaited.
func (c *client) pulls() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pullCap || len(c.pullRegs) > 0
}

// errDied reports a server that exited during a call.
var errDied = errors.New("the language server exited")

// waitFor blocks until cond (called under the lock) holds, the server
// dies, or ctx ends.
func (c *client) waitFor(ctx context.Context, cond func() bool) error {
	for {
		c.mu.Lock()
		ok, dead, ch := cond(), c.dead, c.changed
		c.mu.Unlock()
		switch {
		case ok:
			return nil
		case dead:
			return errDied
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// idle reports, under the lock, that no work-done progress is running and
// the first analysis has ended when the server announces it.
func (c *client) idle() bool {
	return len(c.progress) == 0 && (c.readyLog == nil || c.sawReadyLog)
}

// call sends one request; a server that died meanwhile is errDied.
func (c *client) call(ctx context.Context, method string, params, result any) error {
	err := c.conn.Call(ctx, method, params, result)
	if err != nil && (errors.Is(err, jsonrpc2.ErrClosed) || c.isDead()) {
		return c.died()
	}
	return err
}

// died marks the server dead (the process may not be reaped yet) and
// returns errDied, so the next call starts a new one.
func (c *client) died() error {
	c.setDead()
	return errDied
}

// barrier sends a request every server answers (with an error) once it
// has read everything sent before: its answer comes after whatever the
// server sent in handling those notifications (a progress begun, say).
func (c *client) barrier(ctx context.Context) error {
	err := c.call(ctx, "$/juju/barrier", struct{}{}, nil)
	var rpcErr *jsonrpc2.Error
	if err == nil || errors.As(err, &rpcErr) {
		return nil
	}
	return err
}

// shutdown asks the server to stop, waits until ctx ends for it to exit,
// then kills its process group.
func (c *client) shutdown(ctx context.Context) {
	if !c.isDead() {
		sctx, cancel := context.WithCancel(ctx)
		go func() {
			select {
			case <-c.exited:
				cancel()
			case <-sctx.Done():
			}
		}()
		if c.conn.Call(sctx, "shutdown", nil, nil) == nil {
			c.conn.Notify(sctx, "exit", nil)
		}
		select {
		case <-c.exited:
		case <-sctx.Done():
		}
		cancel()
	}
	c.kill()
}

// kill ends the server's process group and waits for the process to be
// reaped.
func (c *client) kill() {
	if c.cmd.Process != nil {
		jexec.KillGroup(c.cmd.Process.Pid)
	}
	c.conn.Close()
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
		c.m.log.Warn("language server did not exit after SIGKILL", "server", c.reg.Name)
	}
}

// pid is the server's process id.
func (c *client) pid() int {
	if c.cmd.Process == nil {
		return 0
	}
	return c.cmd.Process.Pid
}

// discardLogger silences jsonrpc2's own logging: juju logs what matters.
type discardLogger struct{}

func (discardLogger) Printf(string, ...any) {}

// tail keeps the last bytes written to it: the end of a server's stderr,
// for the log when it fails.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

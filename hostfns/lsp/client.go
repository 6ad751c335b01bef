package lsp

import (
	"context"
	"errors"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/jujutools/juju/internal/lspconfig"
)

// client is one running language server: a registration over one root.
type client struct {
	m       *Manager
	reg     lspconfig.Server
	root    string // the server's root folder, absolute and symlink-free
	cmd     *osexec.Cmd
	conn    *rpcConn
	exited  chan struct{} // closed once the process has exited and been reaped
	stderr  *tail
	started time.Time

	enc encoding
	// lfOnly: the server ends lines at "\n" alone, not at a lone "\r"
	// as the protocol says (gopls, as Go's lexer does).
	lfOnly    bool
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
	docs        map[string]*openDoc  // open documents by URI
	dirty       map[string]int       // absolute paths juju wrote since the last query → file event type
	epoch       string               // the workspace's epoch at the last look for files changed by commands
	looked      time.Time            // when that look began
	files       map[string]time.Time // the regular files that look found, absolute (syncMu; set before baseline closes)
	baseline    chan struct{}        // closed when the first look, begun at the start, is done
	dead        bool
	stalled     bool // a call ran out of time waiting on the server; the next asks it first whether it still reads (probe)
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
	if err != nil && (errors.Is(err, errConnClosed) || c.isDead()) {
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
	var rpcErr *rpcError
	if err == nil || errors.As(err, &rpcErr) {
		return nil
	}
	return err
}

// probeTimeout bounds the wait for a stalled server's answer to a
// barrier: a server busy loading a workspace still reads its input and
// answers a request it does not know at once (gopls, pyright between its
// slices of analysis); one that does not within this is taken as hung.
const probeTimeout = 10 * time.Second

// probe asks a server that left the last call without an answer whether
// it still reads its input, before it is asked anything else: one that
// does not answer a barrier within probeTimeout (deadlocked, stopped,
// spinning) is stopped and reported dead, so the call starts a fresh one
// instead of every later call waiting out its time on it.
func (c *client) probe(ctx context.Context) error {
	c.mu.Lock()
	stalled := c.stalled
	c.mu.Unlock()
	if !stalled {
		return nil
	}
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	err := c.barrier(pctx)
	switch {
	case err == nil:
		c.update(func() { c.stalled = false })
		return nil
	case errors.Is(err, errDied) || ctx.Err() != nil:
		return err
	}
	c.m.log.Warn("language server stopped answering; restarting it", "server", c.reg.Name, "root", c.root, "waited", probeTimeout)
	c.kill()
	return c.died()
}

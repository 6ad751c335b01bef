package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/jujutools/juju/internal/lspconfig"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/proc"
)

// startClient starts the server of reg over root and initializes it. It
// fails with a *startError when the program cannot run or does not answer
// initialize within the manager's InitTimeout.
func (m *Manager) startClient(ctx context.Context, reg lspconfig.Server, root string) (*client, error) {
	prog, err := osexec.LookPath(reg.Command[0])
	if err != nil {
		return nil, &startError{reg: reg.Name, notFound: true, err: err}
	}
	if m.inRoots(prog) {
		// juju runs it outside any sandbox, and a confined command may
		// write anywhere in the roots: it could replace the program.
		return nil, &startError{reg: reg.Name, inRoots: prog}
	}
	// The start's context never ends (its callers share it): the walk
	// gets the time initialize gets.
	link, err := m.checkLinks(ctx, m.rootOf(root))
	if err != nil || link != "" {
		// The server would read the secret through the link itself.
		return nil, &startError{reg: reg.Name, secretLink: m.displayOf(link), err: err}
	}
	cmd := osexec.Command(prog, reg.Command[1:]...)
	cmd.Dir = root
	cmd.Env = m.env
	cmd.SysProcAttr = proc.Attr()
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
		dirty: map[string]int{}, started: time.Now(), baseline: make(chan struct{}),
	}
	c.looked = c.started
	if m.opts.Epoch != nil {
		c.epoch = m.opts.Epoch()
	}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, &startError{reg: reg.Name, notFound: errors.Is(err, os.ErrNotExist), err: err}
	}
	go c.lookFirst(ctx)
	go func() {
		cmd.Wait()
		c.setDead()
		close(c.exited)
	}()
	c.conn = newRPCConn(stdout, stdin, c.handle)
	go func() {
		select {
		case <-c.conn.Done():
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
	c.lfOnly = res.ServerInfo.Name == "gopls"
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

// inRoots reports whether the program prog lies inside a root, by its path
// or where it leads.
func (m *Manager) inRoots(prog string) bool {
	paths := []string{prog}
	if abs, err := filepath.Abs(prog); err == nil {
		paths[0] = abs
	}
	if real, err := filepath.EvalSymlinks(paths[0]); err == nil {
		paths = append(paths, real)
	}
	for _, p := range paths {
		for _, r := range m.pol.Roots() {
			if policy.Within(p, r.Real) || policy.Within(p, r.Path) {
				return true
			}
		}
	}
	return false
}

// startError is a server that could not be started.
type startError struct {
	reg        string
	notFound   bool          // no such program
	inRoots    string        // the program, which lies inside a root
	secretLink string        // a link to a secret in its root (linkToSecret); err is errScanBound or errScanSlow when too large to check
	timeout    time.Duration // initialize not answered in time
	stderr     string
	err        error
}

func (e *startError) Error() string {
	switch {
	case e.notFound:
		return fmt.Sprintf("language server %s: command not found: %v", e.reg, e.err)
	case e.inRoots != "":
		return fmt.Sprintf("language server %s: its program %s lies inside a workspace root", e.reg, e.inRoots)
	case e.secretLink != "":
		return fmt.Sprintf("language server %s: %s is a symbolic link to a secret", e.reg, e.secretLink)
	case errors.Is(e.err, errScanBound):
		return fmt.Sprintf("language server %s: its workspace root holds more than %d entries to check for links to secrets", e.reg, maxLinkScan)
	case errors.Is(e.err, errScanSlow):
		return fmt.Sprintf("language server %s: its workspace root took too long to check for links to secrets", e.reg)
	case e.timeout > 0:
		return fmt.Sprintf("language server %s: no answer to initialize within %s", e.reg, e.timeout)
	}
	return fmt.Sprintf("language server %s: %v", e.reg, e.err)
}

func (e *startError) Unwrap() error { return e.err }

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
		proc.KillGroup(c.cmd.Process.Pid)
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

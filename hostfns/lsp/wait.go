package lsp

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/jujutools/juju/internal/lspconfig"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// waitSettled waits, up to timeout, until the server is idle: no
// work-done progress running, and its first analysis announced when it
// announces one. Past timeout juju asks anyway.
func (c *client) waitSettled(ctx context.Context, timeout time.Duration, why string) error {
	timeout = budget(ctx, timeout)
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := c.waitFor(wctx, c.idle)
	if err != nil && ctx.Err() == nil && !errors.Is(err, errDied) {
		c.m.log.Info("language server still busy; asking anyway", "server", c.reg.Name, "waited", timeout, "for", why)
		return nil
	}
	return err
}

// answerMargin is the time kept, before a call's deadline, to answer with
// what the server has said so far rather than run out of time.
const answerMargin = 3 * time.Second

// budget is how long to wait for a server to settle: d, or less when the
// call's deadline comes sooner.
func budget(ctx context.Context, d time.Duration) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		d = min(d, time.Until(dl)-answerMargin)
	}
	return max(d, 0)
}

// diagState says how current the diagnostics fileDiagnostics returns are.
type diagState int

const (
	diagCurrent diagState = iota // pulled, or pushed for d's current text
	diagOlder                    // the last pushed, for an older text
	diagNone                     // none pushed for d at all
)

// fileDiagnostics returns the diagnostics of the open document d: asked
// for when the server takes textDocument/diagnostic, else the last it
// pushed once that push is current (see the package comment). When the
// wait runs out first, it returns the last pushed and says they are not
// current.
func (c *client) fileDiagnostics(ctx context.Context, d *openDoc) (items []diagnostic, pulled bool, state diagState, err error) {
	tried := c.pulls()
	if tried {
		items, err = c.pull(ctx, d)
		var rpc *rpcError
		if err == nil || !errors.As(err, &rpc) {
			return items, true, diagCurrent, err
		}
		c.m.log.Info("pull diagnostics failed; waiting for pushed ones", "server", c.reg.Name, "err", err)
	}
	if err := c.barrier(ctx); err != nil {
		return nil, false, diagCurrent, err
	}
	wctx, cancel := context.WithTimeout(ctx, budget(ctx, c.m.opts.ReadyTimeout))
	defer cancel()
	err = c.waitFor(wctx, func() bool {
		if !tried && (c.pullCap || len(c.pullRegs) > 0) {
			return true // registered pull diagnostics meanwhile (pyright, after initialized)
		}
		p, ok := c.pushed[d.uri]
		return c.idle() && ok && p.gen >= d.gen && (p.version == nil || *p.version == d.version)
	})
	if err == nil && !tried && c.pulls() {
		// A server that registers pull diagnostics pushes none: ask it.
		items, err = c.pull(ctx, d)
		var rpc *rpcError
		if err == nil || !errors.As(err, &rpc) {
			return items, true, diagCurrent, err
		}
		c.m.log.Info("pull diagnostics failed; answering with the pushed ones", "server", c.reg.Name, "err", err)
		err = nil
	}
	state = diagCurrent
	switch {
	case errors.Is(err, errDied), ctx.Err() != nil:
		return nil, false, diagCurrent, err
	case err != nil:
		c.m.log.Info("no current diagnostics pushed in time; answering with the last", "server", c.reg.Name, "file", d.path)
		state = diagOlder
	}
	c.mu.Lock()
	p, ok := c.pushed[d.uri]
	c.mu.Unlock()
	if !ok {
		state = diagNone // also when a pull failed and nothing was pushed
	}
	return p.items, false, state, nil
}

// pull asks for d's diagnostics, passing the previous result id so an
// unchanged report can be answered in short.
func (c *client) pull(ctx context.Context, d *openDoc) ([]diagnostic, error) {
	c.mu.Lock()
	prev, had := c.pulled[d.uri]
	c.mu.Unlock()
	params := map[string]any{"textDocument": textDocumentID{URI: d.uri}}
	if had && prev.resultID != "" {
		params["previousResultId"] = prev.resultID
	}
	var rep documentDiagnosticReport
	for attempt := 0; ; attempt++ {
		err := c.call(ctx, "textDocument/diagnostic", params, &rep)
		var rpc *rpcError
		// ServerCancelled (-32802): the server's state changed under the
		// request; ask again.
		if err != nil && errors.As(err, &rpc) && rpc.Code == codeServerCancelled && attempt < 3 {
			continue
		}
		if err != nil {
			return nil, err
		}
		break
	}
	items := rep.Items
	if rep.Kind == "unchanged" {
		items = prev.items
	}
	c.update(func() { c.pulled[d.uri] = pulledReport{resultID: rep.ResultID, items: items} })
	return items, nil
}

// walkLimit bounds the entries symbolTargets looks at to find a file of a
// language.
const walkLimit = 20000

// skipDirs are folders never searched for a file of a language.
var skipDirs = map[string]bool{"node_modules": true, "vendor": true, "target": true, "__pycache__": true, "dist": true, "build": true}

// symbolTargets picks the servers to ask for workspace symbols under p: a
// file's own server; for a folder (or "", the first root), the running
// servers there and, for each registration not running there, the server
// of the first file of its languages found in the folder.
func (m *Manager) symbolTargets(p string) ([]*target, *abi.LSPResult, *abi.Error) {
	if p == "" {
		p = "."
	}
	r, e := m.pol.Resolve(p)
	if e != nil {
		return nil, nil, e
	}
	if r.Info.Mode().IsRegular() {
		t, res, e := m.targetOf(p)
		if t == nil {
			return nil, res, e
		}
		return []*target{t}, nil, nil
	}
	if len(m.opts.Servers) == 0 {
		return nil, &abi.LSPResult{Unregistered: true}, nil
	}
	var out []*target
	for _, reg := range m.opts.Servers {
		file := m.findFile(r.Root, r.Rel, reg)
		if file == "" {
			continue
		}
		t, _, e := m.targetOf(m.pol.Display(r.Root, file))
		if e == nil && t != nil {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, &abi.LSPResult{Unregistered: true}, nil
	}
	return out, nil, nil
}

// findFile returns the root-relative path of the first visible file of
// reg's languages under dir, walking breadth-first so the shallowest wins.
func (m *Manager) findFile(root *policy.Root, dir string, reg lspconfig.Server) string {
	fsys := root.OS.FS()
	exts := map[string]bool{}
	for _, name := range reg.Languages {
		if l, ok := abi.LanguageNamed(name); ok {
			for _, e := range l.Extensions {
				exts[e] = true
			}
		}
	}
	queue, seen := []string{dir}, 0
	for len(queue) > 0 && seen < walkLimit {
		d := queue[0]
		queue = queue[1:]
		entries, err := fs.ReadDir(fsys, d)
		if err != nil {
			continue
		}
		for _, en := range entries {
			seen++
			name := en.Name()
			rel := path.Join(d, name)
			if m.pol.Hidden(root, rel) {
				continue
			}
			switch {
			case en.IsDir():
				if !strings.HasPrefix(name, ".") && !skipDirs[name] {
					queue = append(queue, rel)
				}
			case en.Type().IsRegular() && exts[strings.ToLower(path.Ext(name))]:
				return rel
			}
		}
	}
	return ""
}

package lsp

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jujutools/juju/internal/lspconfig"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// deadlineMargin is left between the end of a wait for a server and the
// plugin call's deadline, for juju to convert the answer (bounded:
// decodeSymbols) and the plugin to write it. A server busy on every core
// delays juju too: with gopls loading a 3.2 MB file on a 2-core machine,
// the wait ended 0.4 s after its deadline and the plugin had not written
// even a TIMEOUT 0.6 s later, so 1 s ended such calls as PLUGIN_FAILED.
const deadlineMargin = 3 * time.Second

// serve answers one juju_lsp call.
func (m *Manager) serve(ctx context.Context, req *abi.LSPRequest, _ []byte) (*abi.LSPResult, []byte, *abi.Error) {
	if req.MaxResults <= 0 || req.MaxResults > DefaultMaxResults {
		req.MaxResults = DefaultMaxResults
	}
	// The server's answer is waited for until a little before the plugin
	// call's deadline, so that a server that never answers gives the
	// plugin TIMEOUT, not a plugin stopped with it.
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl.Add(-deadlineMargin))
		defer cancel()
	}
	var res *abi.LSPResult
	var e *abi.Error
	switch req.Op {
	case abi.LSPDefinition, abi.LSPReferences:
		res, e = m.locations(ctx, req)
	case abi.LSPDocumentSymbols:
		res, e = m.documentSymbols(ctx, req)
	case abi.LSPWorkspaceSymbols:
		res, e = m.workspaceSymbols(ctx, req)
	case abi.LSPDiagnostics:
		res, e = m.diagnostics(ctx, req)
	case abi.LSPServers:
		res = m.servers()
	default:
		e = abi.Errorf(abi.InvalidArgument, "unknown lsp operation %q", req.Op)
	}
	return res, nil, e
}

// target is a file a call is about, and the server that answers for it.
type target struct {
	res  *policy.Resolved
	lang abi.Language
	reg  lspconfig.Server
	root string // the server's root folder
}

// targetOf resolves path and finds its server. A file of no known
// language, or of one no server is registered for, is answered
// Unregistered (res non-nil), with the root holding the file.
func (m *Manager) targetOf(p string) (*target, *abi.LSPResult, *abi.Error) {
	if p == "" {
		return nil, nil, abi.Errorf(abi.InvalidArgument, "path is required: the source file to ask about")
	}
	r, e := m.resolveFile(p)
	if e != nil {
		return nil, nil, e
	}
	root := ""
	if d := m.pol.Display(r.Root, "."); d != "." {
		root = d
	}
	lang, ok := abi.LanguageOf(r.Rel)
	if !ok {
		return nil, &abi.LSPResult{Unregistered: true, Root: root}, nil
	}
	reg, ok := lspconfig.For(m.opts.Servers, lang.Name)
	if !ok {
		return nil, &abi.LSPResult{Unregistered: true, Language: lang.Name, Root: root}, nil
	}
	return &target{res: r, lang: lang, reg: reg, root: m.roots.find(r, reg.RootMarkers)}, nil, nil
}

// serverRoot is the server's root for r's file, inside its workspace
// root: the nearest folder above the file holding the first marker, else
// the nearest holding the second, and so on; the workspace root when none
// holds any. The order is a priority, so that go.work,go.mod gives every
// module of a go.work the go.work's server, as gopls loads them all as
// one workspace, not a server per module each loading the whole go.work.
// top is the highest folder the walk looked in (slash-separated, inside
// the root): the folders from the file's up to it are those whose entries
// decide the answer.
func serverRoot(r *policy.Resolved, markers []string) (root, top string) {
	top = path.Dir(r.Rel)
	for _, mk := range markers {
		dir := path.Dir(r.Rel)
		for {
			if _, err := r.Root.OS.Stat(path.Join(dir, mk)); err == nil {
				return filepath.Join(r.Root.Real, filepath.FromSlash(dir)), top
			}
			if dir == "." {
				break
			}
			dir = path.Dir(dir)
		}
		top = "."
	}
	return r.Root.Real, top
}

// withServer runs fn on t's server, starting it when needed; a call that
// fails because the server died is retried once on a fresh server, and so
// is one that finds the server no longer answering (probe).
func (m *Manager) withServer(ctx context.Context, t *target, fn func(c *client) error) *abi.Error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		var c *client
		c, err = m.get(ctx, t.reg, t.root)
		if err != nil {
			return m.startFailure(t.reg.Name, err)
		}
		if err = c.probe(ctx); err == nil {
			if err = c.flush(ctx); err == nil {
				err = fn(c)
			}
		}
		if err != nil && ctx.Err() != nil && !errors.Is(err, errDied) {
			c.update(func() { c.stalled = true })
		}
		if !errors.Is(err, errDied) {
			break
		}
		m.log.Warn("language server died during a call", "server", t.reg.Name, "attempt", attempt+1, "stderr", c.stderr.String())
	}
	return m.callFailure(ctx, t.reg.Name, err)
}

// startFailure turns a failed start into the error the model reads.
func (m *Manager) startFailure(name string, err error) *abi.Error {
	var se *startError
	switch {
	case errors.Is(err, errClosed):
		return abi.Errorf(abi.Internal, "juju is shutting down its language servers; try again after it restarts")
	case errors.As(err, &se) && se.notFound:
		return abi.Errorf(abi.NotFound, "the language server %s could not be started: its command was not found on this machine. The owner can install it, fix the registration (juju lsp add %s --replace --command …) or remove it (juju lsp remove %s); juju doctor lists the registrations", name, name, name)
	case errors.As(err, &se) && se.inRoots != "":
		return abi.Errorf(abi.PathDenied, "the language server %s was not started: its program lies inside the workspace, where commands can replace it, and juju runs it outside any sandbox. The owner can install it outside the workspace and register that (juju lsp add %s --replace --command …)", name, name)
	case errors.As(err, &se) && se.secretLink != "":
		return abi.Errorf(abi.SecretDenied, "the language server %s was not started: %s is a symbolic link to a secret, and the server, which reads the workspace itself, would read the secret through it and could quote it in its answers. The owner can remove the link", name, abi.Quote(se.secretLink))
	case errors.As(err, &se) && errors.Is(se.err, errScanBound):
		return abi.Errorf(abi.TooLarge, "the language server %s was not started: the workspace root it would serve holds more than %d files and folders, more than juju checks for links to secrets before it starts a server. The owner can serve the project's own folder as the root instead", name, maxLinkScan)
	case errors.As(err, &se) && errors.Is(se.err, errScanSlow):
		return abi.Errorf(abi.TooLarge, "the language server %s was not started: the workspace root it would serve holds more links than juju checks for links to secrets within %s before it starts a server. The owner can serve the project's own folder as the root instead", name, m.opts.InitTimeout)
	case errors.As(err, &se) && se.timeout > 0:
		return abi.Errorf(abi.Timeout, "the language server %s did not answer initialize within %s, so it was stopped; the next call starts it again. If it keeps happening, the owner should check its command (juju lsp list, juju doctor)", name, se.timeout)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return abi.Errorf(abi.Timeout, "the call ran out of time while the language server %s was starting; try again", name)
	}
	return abi.Errorf(abi.Internal, "the language server %s could not be started (it exited during initialize); the owner can check it with juju doctor", name)
}

// callFailure turns a failed request into the error the model reads; nil
// for nil.
func (m *Manager) callFailure(ctx context.Context, name string, err error) *abi.Error {
	var ae *abi.Error
	var rpc *rpcError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, errDied):
		return abi.Errorf(abi.Internal, "the language server %s exited twice while answering; the next call starts it again. If it keeps happening, the owner should check it (juju doctor)", name)
	case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
		return abi.Errorf(abi.Timeout, "the language server %s did not answer in time; try again: it may still be loading the workspace, and if it stopped answering the next call starts it again", name)
	case errors.As(err, &rpc):
		return abi.Errorf(abi.InvalidArgument, "the language server %s could not answer: %s. Check that the position points at an identifier", name, oneLine(rpc.Message, 300))
	}
	m.log.Warn("language server call failed", "server", name, "err", err)
	return abi.Errorf(abi.Internal, "the language server %s failed to answer; try again", name)
}

// oneLine cuts s to one line of at most max bytes.
func oneLine(s string, max int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}

// servers describes the registrations and their running servers.
func (m *Manager) servers() *abi.LSPResult {
	res := &abi.LSPResult{Servers: []abi.LSPServerInfo{}}
	running := m.running()
	for _, reg := range m.opts.Servers {
		info := abi.LSPServerInfo{Name: reg.Name, Languages: reg.Languages}
		for _, c := range running {
			if c.reg.Name == reg.Name {
				info.Running = append(info.Running, m.displayDir(c.root))
			}
		}
		res.Servers = append(res.Servers, info)
	}
	return res
}

// displayDir is how the model sees a server root.
func (m *Manager) displayDir(abs string) string {
	for _, r := range m.pol.Roots() {
		if within(abs, r.Real) {
			rel, _ := filepath.Rel(r.Real, abs)
			return m.pol.Display(r, filepath.ToSlash(rel))
		}
	}
	return fmt.Sprintf("(%s)", filepath.Base(abs))
}

// shownPath is p as a sentence gives it: as it is when every character
// shows as itself, quoted (abi.Quote) when it holds a control, format or
// other invisible character, as a bidi override that would reorder the
// sentence.
func shownPath(p string) string {
	if q := strconv.Quote(p); q[1:len(q)-1] == p {
		return p
	}
	return abi.Quote(p)
}

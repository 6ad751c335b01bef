package lsp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/journal"
	"github.com/jujutools/juju/internal/lspconfig"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sandbox"
	"github.com/jujutools/juju/sdk/abi"
)

// Defaults of Options.
const (
	DefaultInitTimeout   = 20 * time.Second
	DefaultReadyTimeout  = 60 * time.Second
	DefaultShutdownGrace = 2 * time.Second
	DefaultMaxOpen       = 64
	DefaultMaxServers    = 8
	DefaultMaxResults    = 1000
	// MaxFileSize bounds a file juju sends to a server.
	MaxFileSize = 8 << 20
)

// Options configure a Manager.
type Options struct {
	// Servers are the owner's registrations.
	Servers []lspconfig.Server
	// InitTimeout bounds the wait for a server's answer to initialize.
	InitTimeout time.Duration
	// ReadyTimeout bounds the wait for a server to settle (its first
	// analysis, its diagnostics after a change); past it juju answers with
	// what the server has said so far.
	ReadyTimeout time.Duration
	// ShutdownGrace is how long Close waits for a server to exit after
	// shutdown before it kills the server's process group.
	ShutdownGrace time.Duration
	// MaxOpen bounds the documents open in one server; the least recently
	// used are closed past it.
	MaxOpen int
	// MaxServers bounds the servers running at once (DefaultMaxServers
	// when 0): each folder holding a root marker gets a server of its own,
	// so a workspace of a hundred modules would start a hundred. Past it
	// the least recently used server is shut down to start the next.
	MaxServers int
	// Env is the servers' environment; nil: juju's own, scrubbed of secrets.
	// Either way CGO_ENABLED=0 is set (withoutCgo).
	Env    []string
	Logger *slog.Logger
	// Epoch is the workspace's epoch (approval.Store.Epoch), which juju
	// changes around every call that may change files: a root's link check
	// is reused, for a short time, while it stays the same (verdicts.go),
	// and when it moves, or the last look is lookEvery old, a server's root
	// is looked over for files a command or the owner's editor wrote or
	// deleted (sync.go, commandChanges). nil: every start checks again, and
	// only the journal's writes are named.
	Epoch func() string
}

// Manager runs the language servers of one workspace. It is safe for
// concurrent use.
type Manager struct {
	pol  *policy.Policy
	opts Options
	log  *slog.Logger
	env  []string
	// system are the folders outside the roots whose files a diagnostic
	// may quote (quoted.go).
	system []string

	mu      sync.Mutex
	clients map[key]*slot
	closed  bool

	verdicts verdicts  // the last link checks, per root
	roots    rootCache // the server roots found, per folder
	texts    textCache // files quoted that no server has open

	// reads counts the files read to be sent or quoted, and roots.walks
	// the walks for a server's root: what the stamps spare is counted.
	reads atomic.Int64
}

// key names one server: a registration over a root folder.
type key struct{ reg, root string }

// slot is a server being started, or running.
type slot struct {
	c        *client
	starting chan struct{} // closed when the start ended (c set, or the slot dropped)
	used     time.Time     // when a call last got it
}

// New returns a Manager for the workspace of pol. Nothing starts until a
// call needs a server.
func New(pol *policy.Policy, opts Options) *Manager {
	if opts.InitTimeout <= 0 {
		opts.InitTimeout = DefaultInitTimeout
	}
	if opts.ReadyTimeout <= 0 {
		opts.ReadyTimeout = DefaultReadyTimeout
	}
	if opts.ShutdownGrace <= 0 {
		opts.ShutdownGrace = DefaultShutdownGrace
	}
	if opts.MaxOpen <= 0 {
		opts.MaxOpen = DefaultMaxOpen
	}
	if opts.MaxServers <= 0 {
		opts.MaxServers = DefaultMaxServers
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	env := opts.Env
	if env == nil {
		env = sandbox.Scrub(os.Environ())
	}
	return &Manager{pol: pol, opts: opts, log: log, env: localToolchain(withoutCgo(env)), system: systemPlaces(), clients: map[key]*slot{}}
}

// withoutCgo is env with CGO_ENABLED=0, whatever it said: a server runs
// unconfined, and gopls with cgo runs the C compiler on the preamble of
// every Go file that imports "C". The repository writes that preamble, so
// it can #include any file the owner can read, and the compiler folds the
// file's text into its reports — even into a report placed in the Go file
// itself ("incomplete type 'struct <the file's first word>'"), which no
// filter of the names a message quotes can tell apart. Without cgo, gopls
// still answers for those files, from their Go code alone.
func withoutCgo(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "CGO_ENABLED=") {
			out = append(out, kv)
		}
	}
	return append(out, "CGO_ENABLED=0")
}

// localToolchain is env with GOTOOLCHAIN=local unless it names a choice
// that downloads nothing (local, path, or NAME+path). A server runs for
// tier R tools, and the go command gopls runs reads the go.mod a model may
// write (tier E): its `go 1.99` or `toolchain` line had the go command ask
// the module proxy for that release, then run it — a fetch no owner
// approved. With local, gopls reports that the module needs a newer Go.
func localToolchain(env []string) []string {
	out := make([]string, 0, len(env)+1)
	last := "" // the value the go command takes: the last one
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOTOOLCHAIN="); ok {
			last = v
			continue
		}
		out = append(out, kv)
	}
	if last == "local" || last == "path" || strings.HasSuffix(last, "+path") {
		return append(out, "GOTOOLCHAIN="+last)
	}
	return append(out, "GOTOOLCHAIN=local")
}

// Funcs returns the juju_lsp host function.
func (m *Manager) Funcs() []hostfns.Func {
	return []hostfns.Func{{Name: abi.FnLSP, Capability: abi.CapLSP, Handle: hostfns.TypedCodec(lspCodec, m.serve)}}
}

// errClosed reports a call after Close.
var errClosed = errors.New("the language servers are shut down")

// get returns the running server of reg over root, starting it when there
// is none (or it died). Concurrent callers share one start.
func (m *Manager) get(ctx context.Context, reg lspconfig.Server, root string) (*client, error) {
	k := key{reg.Name, root}
	for {
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			return nil, errClosed
		}
		s := m.clients[k]
		if s != nil && s.starting != nil {
			ch := s.starting
			m.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if s != nil && !s.c.isDead() {
			s.used = time.Now()
			m.mu.Unlock()
			return s.c, nil
		}
		if s != nil {
			m.log.Warn("language server exited; restarting it", "server", reg.Name, "root", root,
				"stderr", s.c.stderr.String())
			go s.c.kill() // reaps what is left of its group
		}
		s = &slot{starting: make(chan struct{}), used: time.Now()}
		m.clients[k] = s
		evicted := m.evict(k)
		m.mu.Unlock()
		for _, c := range evicted {
			m.log.Info("language server stopped to make room for another", "server", c.reg.Name, "root", c.root, "max_servers", m.opts.MaxServers)
			go c.shutdown(context.Background())
		}

		// The start is shared: it does not end with this caller's context.
		c, err := m.startClient(context.WithoutCancel(ctx), reg, root)
		m.mu.Lock()
		closed := m.closed
		if err != nil || closed {
			delete(m.clients, k)
		} else {
			s.c = c
		}
		close(s.starting)
		s.starting = nil
		m.mu.Unlock()
		if err == nil && closed {
			c.shutdown(context.Background())
			return nil, errClosed
		}
		if err != nil {
			m.log.Warn("language server failed to start", "server", reg.Name, "root", root, "err", err)
		}
		return c, err
	}
}

// evict takes the least recently used running servers out of the table
// until at most MaxServers slots are left, keeping the slot of k and those
// still starting; the caller shuts them down. m.mu is held.
func (m *Manager) evict(k key) []*client {
	var out []*client
	for len(m.clients) > m.opts.MaxServers {
		var oldest key
		var found *slot
		for kk, s := range m.clients {
			if kk == k || s.c == nil || s.starting != nil {
				continue
			}
			if found == nil || s.used.Before(found.used) {
				oldest, found = kk, s
			}
		}
		if found == nil {
			break // all starting: they are bounded by the calls running
		}
		delete(m.clients, oldest)
		out = append(out, found.c)
	}
	return out
}

// running returns the servers running now.
func (m *Manager) running() []*client {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*client
	for _, s := range m.clients {
		if s.c != nil && !s.c.isDead() {
			out = append(out, s.c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].reg.Name+out[i].root < out[j].reg.Name+out[j].root })
	return out
}

// Observe tells the running servers that juju changed files (the
// journal's observer). They hear of it before their next query.
func (m *Manager) Observe(files []journal.Touched) {
	for _, c := range m.running() {
		c.update(func() {
			for _, f := range files {
				if !within(f.Path, c.root) {
					continue
				}
				switch f.Action {
				case abi.ActionCreated, abi.ActionDirCreated:
					c.dirty[f.Path] = eventCreated
				case abi.ActionDeleted, abi.ActionDirDeleted:
					c.dirty[f.Path] = eventDeleted
				default:
					if c.dirty[f.Path] == 0 {
						c.dirty[f.Path] = eventChanged
					}
				}
			}
		})
	}
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (len(rel) < 3 || rel[:3] != ".."+string(filepath.Separator))
}

// Close shuts every server down: shutdown and exit, up to ShutdownGrace
// (or until ctx ends), then the process group is killed. Calls after Close
// fail.
func (m *Manager) Close(ctx context.Context) error {
	m.mu.Lock()
	m.closed = true
	var all []*client
	for _, s := range m.clients {
		if s.c != nil {
			all = append(all, s.c)
		}
	}
	m.clients = map[key]*slot{}
	m.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, m.opts.ShutdownGrace)
	defer cancel()
	var wg sync.WaitGroup
	for _, c := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.shutdown(ctx)
		}()
	}
	wg.Wait()
	return nil
}

// PIDs returns the process ids of the running servers (doctor, tests).
func (m *Manager) PIDs() []int {
	var out []int
	for _, c := range m.running() {
		out = append(out, c.pid())
	}
	return out
}

// lspCodec decodes a request field by field (abi.DecodeLSPRequest); the
// answer, with its locations or symbols, is left to encoding/json.
var lspCodec = hostfns.Codec[abi.LSPRequest, abi.LSPResult]{Decode: abi.DecodeLSPRequest}

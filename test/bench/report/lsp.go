package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/jujutools/juju/internal/lspconfig"
)

// The LSP lines: go_to_definition through juju with gopls registered,
// against the same textDocument/definition sent to gopls directly (a
// client of the benchmark's own over stdio, jsonrpc2 as juju uses).
// "lsp1" is the first call, on a server juju has not started yet (gopls
// starts and loads the module within the call); "lsp2" the calls after.
// "lsp3" asks for the outline of a large file (document_symbols against
// textDocument/documentSymbol): hundreds of symbols through every layer.

// lspModule is the Go module the LSP lines ask about.
var lspModule = map[string]string{
	"go.mod":        "module example.com/bench\n\ngo 1.22\n",
	"lib/server.go": "package lib\n\n// Server serves. 😀\ntype Server struct{ Name string }\n\n// NewServer makes a Server.\nfunc NewServer(name string) *Server { return &Server{Name: name} }\n",
	"app/main.go":   "package main\n\nimport \"example.com/bench/lib\"\n\nfunc main() {\n\ts := lib.NewServer(\"😀\")\n\t_ = s\n}\n",
}

// lspOutline is the large file lsp3 outlines: a copy of net/http's
// server.go from the Go tree (4,000 lines, some 370 symbols), which gopls
// outlines from its syntax alone.
const lspOutline = "outline/server.go"

// lspQuery is where the lines ask: NewServer in app/main.go (line 6,
// column 11; UTF-16 offset 10).
const (
	lspQueryFile   = "app/main.go"
	lspQueryLine   = 6
	lspQueryColumn = 11
)

// gopls finds the gopls the tests pin (make lsp-servers), else one on PATH.
func gopls() (string, error) {
	if p, err := filepath.Abs(filepath.Join("test", "lspservers", "bin", "gopls")); err == nil {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	p, err := exec.LookPath("gopls")
	if err != nil {
		return "", fmt.Errorf("gopls is not installed (make lsp-servers)")
	}
	return p, nil
}

// lspWorkspace writes lspModule into a fresh folder, and a JUJU_HOME that
// shares the warm compilation cache and registers gopls.
func (b *bench) lspWorkspace(name, goplsBin string) (root, home string, err error) {
	root = filepath.Join(b.tmp, name)
	for p, c := range lspModule {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return "", "", err
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			return "", "", err
		}
	}
	if b.opts.gotree != "" {
		src, err := os.ReadFile(filepath.Join(b.opts.gotree, "net", "http", "server.go"))
		if err != nil {
			return "", "", err
		}
		full := filepath.Join(root, filepath.FromSlash(lspOutline))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return "", "", err
		}
		if err := os.WriteFile(full, src, 0o644); err != nil {
			return "", "", err
		}
	}
	home = filepath.Join(b.tmp, name+"-home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return "", "", err
	}
	if err := os.Symlink(filepath.Join(b.warmHome, "cache"), filepath.Join(home, "cache")); err != nil {
		return "", "", err
	}
	reg := lspconfig.Server{Name: "gopls", Command: []string{goplsBin}, Languages: []string{"go"},
		RootMarkers: []string{"go.mod"}, InitOptions: `{"verboseWorkDoneProgress":true}`}
	return root, home, lspconfig.Save(filepath.Join(home, "config"), []lspconfig.Server{reg})
}

func definitionParams() json.RawMessage {
	return callParams("go_to_definition", map[string]any{"path": lspQueryFile, "line": lspQueryLine, "column": lspQueryColumn})
}

func outlineParams() json.RawMessage {
	return callParams("document_symbols", map[string]any{"path": lspOutline})
}

// lsps are the rows lsp1, lsp2 and lsp3.
func (b *bench) lsps() []row {
	r1 := row{ID: "lsp1", Work: "go_to_definition, first call (gopls not started yet)", Unit: "ms", Target: target{Limit: 1.5, OnRatio: true},
		Via: "a fresh juju (warm plugin cache, core warmed by one read_file) with gopls registered; the call starts gopls, which loads the module", Against: "gopls spawned directly: initialize, initialized, didOpen, textDocument/definition"}
	r2 := row{ID: "lsp2", Work: "go_to_definition, warm gopls", Unit: "ms", Target: target{Limit: 2, OnRatio: true},
		Via: "the same juju after its first call, raw JSON-RPC over stdio", Against: "textDocument/definition to the same directly driven gopls, warm"}
	r3 := row{ID: "lsp3", Work: "document_symbols of a 4,000-line file, warm gopls", Unit: "ms", Target: target{Limit: 2, OnRatio: true},
		Via: "the same juju, raw JSON-RPC over stdio: net/http's server.go outlined", Against: "textDocument/documentSymbol of the same file to the same directly driven gopls (hierarchical, as juju asks)"}
	bin, err := gopls()
	if err != nil {
		return []row{r1.with(nil, nil, err), r2.with(nil, nil, err), r3.with(nil, nil, err)}
	}
	runs := max(3, b.opts.firstRuns)
	b.progress("go_to_definition through gopls, first call, n=%d each (juju, gopls directly)", runs)
	var jf, df sample
	var warmJuju *server
	var warmDirect *lspDirect
	for i := range runs {
		root, home, err := b.lspWorkspace(fmt.Sprintf("lsp-%d", i), bin)
		if err != nil {
			return []row{r1.with(nil, nil, err), r2.with(nil, nil, err), r3.with(nil, nil, err)}
		}
		c := b.juju(home, root)
		c.name = "juju-lsp" // not a steady-state server of the memory line: most are closed here
		s, err := b.live(c)
		if err != nil {
			return []row{r1.with(nil, nil, err), r2.with(nil, nil, err), r3.with(nil, nil, err)}
		}
		// The core plugin's own first call (an instance to make) is line 7w's
		// business: warm it with a read, so lsp1 times the language server.
		if _, err := timedCall(s, callParams("read_file", map[string]any{"path": "go.mod"})); err != nil {
			return []row{r1.with(nil, nil, err), r2.with(nil, nil, err), r3.with(nil, nil, err)}
		}
		d, err := timedCall(s, definitionParams())
		if err != nil {
			return []row{r1.with(nil, nil, err), r2.with(nil, nil, err), r3.with(nil, nil, err)}
		}
		jf = append(jf, d)
		direct, d, err := startDirect(bin, root)
		if err != nil {
			return []row{r1.with(nil, nil, err), r2.with(nil, nil, err), r3.with(nil, nil, err)}
		}
		df = append(df, d)
		if i == runs-1 {
			warmJuju, warmDirect = s, direct
		} else {
			s.close(5 * time.Second)
			direct.close()
		}
	}
	defer warmDirect.close()
	r1 = r1.with(jf, df, nil)

	calls := min(b.opts.calls, 300)
	b.progress("go_to_definition through gopls, warm, %d calls each", calls)
	var jw, dw sample
	deadline := time.Now().Add(b.opts.maxTime)
	for i := 0; i < calls && (i < 30 || time.Now().Before(deadline)); i++ {
		d, err := timedCall(warmJuju, definitionParams())
		if err != nil {
			return []row{r1, r2.with(nil, nil, err), r3.with(nil, nil, err)}
		}
		jw = append(jw, d)
		if d, err = warmDirect.definition(); err != nil {
			return []row{r1, r2.with(nil, nil, err), r3.with(nil, nil, err)}
		}
		dw = append(dw, d)
	}
	r2 = r2.with(jw, dw, nil)
	r2.Note = "juju adds MCP, the wasm plugin, the policy (the file read and sent again when changed) and the column conversion to gopls's own time"
	return []row{r1, r2, b.outline(r3, warmJuju, warmDirect)}
}

// outline is lsp3, on the servers lsp2 warmed.
func (b *bench) outline(r row, s *server, direct *lspDirect) row {
	if b.opts.gotree == "" {
		return r.with(nil, nil, errors.New("no Go tree: pass -gotree"))
	}
	// Each side opens the file once before it is timed.
	if _, err := timedCall(s, outlineParams()); err != nil {
		return r.with(nil, nil, err)
	}
	if _, err := direct.outline(); err != nil {
		return r.with(nil, nil, err)
	}
	calls := min(b.opts.calls, 100)
	b.progress("document_symbols of %s through gopls, warm, %d calls each", lspOutline, calls)
	var js, ds sample
	deadline := time.Now().Add(b.opts.maxTime)
	for i := 0; i < calls && (i < 10 || time.Now().Before(deadline)); i++ {
		d, err := timedCall(s, outlineParams())
		if err != nil {
			return r.with(nil, nil, err)
		}
		js = append(js, d)
		if d, err = direct.outline(); err != nil {
			return r.with(nil, nil, err)
		}
		ds = append(ds, d)
	}
	r = r.with(js, ds, nil)
	r.Note = "juju adds MCP, the wasm plugin (the outline decoded, cut to the answer's caps, written as text and as structured content) and the column conversion"
	return r
}

// lspDirect is gopls driven by the benchmark itself.
type lspDirect struct {
	cmd        *exec.Cmd
	conn       *jsonrpc2.Conn
	uri        string
	root       string
	outlineURI string // lspOutline, once opened
}

type stdioPipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p stdioPipes) Close() error { p.WriteCloser.Close(); return p.ReadCloser.Close() }

// startDirect starts gopls over root and asks for the definition once; the
// duration covers all of it, as juju's first call does.
func startDirect(bin, root string) (*lspDirect, time.Duration, error) {
	t := time.Now()
	cmd := exec.Command(bin)
	cmd.Dir = root
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, 0, err
	}
	if err := cmd.Start(); err != nil {
		return nil, 0, err
	}
	h := jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, r *jsonrpc2.Request) (any, error) {
		if r.Method == "workspace/configuration" {
			return []any{nil}, nil
		}
		return nil, nil
	})
	d := &lspDirect{cmd: cmd, conn: jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(stdioPipes{out, in}, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.AsyncHandler(h))}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rootURI := "file://" + root
	if err := d.conn.Call(ctx, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": rootURI,
		"capabilities": map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-16"}},
			"textDocument": map[string]any{"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true}}}}, nil); err != nil {
		d.close()
		return nil, 0, err
	}
	d.conn.Notify(ctx, "initialized", struct{}{})
	file := filepath.Join(root, lspQueryFile)
	text, err := os.ReadFile(file)
	if err != nil {
		d.close()
		return nil, 0, err
	}
	d.uri = "file://" + file
	d.root = root
	d.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": d.uri, "languageId": "go", "version": 1, "text": string(text)}})
	if _, err := d.definition(); err != nil {
		d.close()
		return nil, 0, err
	}
	return d, time.Since(t), nil
}

// definition asks for NewServer's definition, as juju's calls do.
func (d *lspDirect) definition() (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	t := time.Now()
	var res []json.RawMessage
	err := d.conn.Call(ctx, "textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": d.uri},
		"position": map[string]any{"line": lspQueryLine - 1, "character": lspQueryColumn - 1}}, &res)
	if err == nil && len(res) == 0 {
		err = fmt.Errorf("gopls found no definition")
	}
	if err != nil && !strings.Contains(err.Error(), "gopls") {
		err = fmt.Errorf("gopls directly: %w", err)
	}
	return time.Since(t), err
}

// outline asks for lspOutline's document symbols, opening it first.
func (d *lspDirect) outline() (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if d.outlineURI == "" {
		file := filepath.Join(d.root, filepath.FromSlash(lspOutline))
		text, err := os.ReadFile(file)
		if err != nil {
			return 0, err
		}
		d.outlineURI = "file://" + file
		d.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": d.outlineURI, "languageId": "go", "version": 1, "text": string(text)}})
	}
	t := time.Now()
	var res []json.RawMessage
	err := d.conn.Call(ctx, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": d.outlineURI}}, &res)
	if err == nil && len(res) == 0 {
		err = fmt.Errorf("gopls found no symbols in %s", lspOutline)
	}
	if err != nil {
		err = fmt.Errorf("gopls directly: %w", err)
	}
	return time.Since(t), err
}

func (d *lspDirect) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	d.conn.Call(ctx, "shutdown", nil, nil)
	d.conn.Notify(ctx, "exit", nil)
	cancel()
	d.conn.Close()
	done := make(chan struct{})
	go func() { d.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		d.cmd.Process.Kill()
		<-done
	}
}

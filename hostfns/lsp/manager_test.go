//go:build unix

package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/jujutools/juju/internal/journal"
	"github.com/jujutools/juju/internal/lspconfig"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// The test binary doubles as a fake language server (helper process):
// with FAKELSP_MODE set it speaks LSP on stdin and stdout and exits.
func TestMain(m *testing.M) {
	if mode := os.Getenv("FAKELSP_MODE"); mode != "" {
		fakeServer(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return nil }

// fakeServer answers: initialize; definition with the position it was
// given (an echo, for the column round trip); documentSymbol; and it
// pushes, for every opened or changed document, one diagnostic whose
// message is the document's first line, with the document's version.
// Mode "hang" never answers; "mute" pushes no diagnostics; "openonly"
// pushes them for opened documents only; "elsewhere" answers a definition
// at the same position in b.go, next to the file asked about, and pushes
// nothing; "crashonce" exits at the first definition
// when the file named by FAKELSP_MARK does not exist yet (creating it).
func fakeServer(mode string) {
	if mode == "hang" {
		io.Copy(io.Discard, os.Stdin)
		return
	}
	done := make(chan struct{})
	var conn *jsonrpc2.Conn
	var events []any // workspace/didChangeWatchedFiles, told back as symbols
	h := jsonrpc2.HandlerWithError(func(ctx context.Context, c *jsonrpc2.Conn, r *jsonrpc2.Request) (any, error) {
		var p map[string]any
		if r.Params != nil {
			json.Unmarshal(*r.Params, &p)
		}
		switch r.Method {
		case "initialize":
			return map[string]any{"capabilities": map[string]any{"definitionProvider": true, "documentSymbolProvider": true, "workspaceSymbolProvider": true}}, nil
		case "textDocument/definition":
			if mode == "crashonce" {
				if _, err := os.Stat(os.Getenv("FAKELSP_MARK")); err != nil {
					os.WriteFile(os.Getenv("FAKELSP_MARK"), nil, 0o644)
					os.Exit(3)
				}
			}
			td := p["textDocument"].(map[string]any)
			pos := p["position"]
			uri := td["uri"]
			if mode == "elsewhere" { // the same position in b.go, next to the file
				uri = uri.(string)[:strings.LastIndex(uri.(string), "/")] + "/b.go"
			}
			return []any{map[string]any{"uri": uri, "range": map[string]any{"start": pos, "end": pos}}}, nil
		case "textDocument/didOpen", "textDocument/didChange":
			if mode == "mute" || mode == "elsewhere" || (mode == "openonly" && r.Method == "textDocument/didChange") {
				break
			}
			td := p["textDocument"].(map[string]any)
			var body string
			if t, ok := td["text"].(string); ok {
				body = t
			} else {
				body = p["contentChanges"].([]any)[0].(map[string]any)["text"].(string)
			}
			first, _, _ := strings.Cut(body, "\n")
			go c.Notify(context.Background(), "textDocument/publishDiagnostics", map[string]any{
				"uri": td["uri"], "version": td["version"],
				"diagnostics": []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 2}, "end": map[string]any{"line": 0, "character": 4}},
					"severity": 2, "code": 7, "message": first}},
			})
		case "workspace/didChangeWatchedFiles":
			for _, ch := range p["changes"].([]any) {
				ev := ch.(map[string]any)
				events = append(events, map[string]any{"name": fmt.Sprintf("event:%v:%s", ev["type"], filepath.Base(ev["uri"].(string))), "kind": 13,
					"location": map[string]any{"uri": ev["uri"], "range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}}}})
			}
		case "workspace/symbol":
			return events, nil
		case "shutdown":
			return nil, nil
		case "exit":
			close(done)
		}
		if !r.Notif {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "no " + r.Method}
		}
		return nil, nil
	})
	conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(stdio{}, jsonrpc2.VSCodeObjectCodec{}), h)
	select {
	case <-done:
	case <-conn.DisconnectNotify():
	}
}

// fakeManager runs the fake server in mode over a workspace holding files.
func fakeManager(t testing.TB, mode string, files map[string]string, opts Options) (*Manager, string) {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pol, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pol.Close() })
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if opts.Servers == nil {
		opts.Servers = []lspconfig.Server{{Name: "fake", Command: []string{exe}, Languages: []string{"go"}}}
	}
	opts.Env = append(os.Environ(), "FAKELSP_MODE="+mode, "FAKELSP_MARK="+filepath.Join(t.TempDir(), "mark"))
	m := New(pol, opts)
	t.Cleanup(func() { m.Close(context.Background()) })
	return m, root
}

func ask(t *testing.T, m *Manager, req abi.LSPRequest) (*abi.LSPResult, *abi.Error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, _, e := m.serve(ctx, &req, nil)
	return res, e
}

func TestFakeDefinitionColumns(t *testing.T) {
	line := "/* 😀😀 */ s := lib.NewServer()" // NewServer: column 19, UTF-16 offset 21
	m, _ := fakeManager(t, "ok", map[string]string{"a.go": "package a\n" + line + "\n"}, Options{})
	for _, col := range []int{1, 4, 5, 10, 19, 29} {
		res, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDefinition, Path: "a.go", Line: 2, Column: col})
		if e != nil {
			t.Fatal(e)
		}
		if len(res.Locations) != 1 || res.Locations[0].Column != col || res.Locations[0].Line != 2 || res.Locations[0].Text != line {
			t.Fatalf("column %d came back as %+v", col, res.Locations)
		}
	}
	// A space, and columns past the line's 29 code points, point at no
	// character: refused, not clamped to the nearest identifier.
	for _, col := range []int{11, 30, 99} {
		for _, op := range []string{abi.LSPDefinition, abi.LSPReferences} {
			if _, e := ask(t, m, abi.LSPRequest{Op: op, Path: "a.go", Line: 2, Column: col, MaxResults: 10}); e == nil || e.Code != abi.InvalidArgument {
				t.Fatalf("%s at column %d: want INVALID_ARGUMENT, got %v", op, col, e)
			}
		}
	}
}

func TestFakeUnregistered(t *testing.T) {
	m, _ := fakeManager(t, "ok", map[string]string{"a.py": "x = 1\n", "notes.txt": "x\n", ".env": "K=v\n"}, Options{})
	res, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDocumentSymbols, Path: "a.py"})
	if e != nil || !res.Unregistered || res.Language != "python" {
		t.Fatalf("python: %+v %v", res, e)
	}
	res, e = ask(t, m, abi.LSPRequest{Op: abi.LSPDocumentSymbols, Path: "notes.txt"})
	if e != nil || !res.Unregistered || res.Language != "" {
		t.Fatalf("text: %+v %v", res, e)
	}
	if _, e = ask(t, m, abi.LSPRequest{Op: abi.LSPDocumentSymbols, Path: ".env"}); e == nil || e.Code != abi.SecretDenied {
		t.Fatalf("a secret must be refused before any server sees it: %v", e)
	}
	if len(m.PIDs()) != 0 {
		t.Fatal("a server started for files it does not serve")
	}
}

func TestFakeBadCommand(t *testing.T) {
	m, _ := fakeManager(t, "ok", map[string]string{"a.go": "package a\n"}, Options{Servers: []lspconfig.Server{
		{Name: "nosuch", Command: []string{"juju-no-such-language-server"}, Languages: []string{"go"}}}})
	start := time.Now()
	_, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDocumentSymbols, Path: "a.go"})
	if e == nil || e.Code != abi.NotFound || !strings.Contains(e.Message, "nosuch") {
		t.Fatalf("want NOT_FOUND naming the server, got %v", e)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %s", d)
	}
}

func TestFakeHang(t *testing.T) {
	m, _ := fakeManager(t, "hang", map[string]string{"a.go": "package a\n"}, Options{InitTimeout: 300 * time.Millisecond})
	start := time.Now()
	_, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDocumentSymbols, Path: "a.go"})
	if e == nil || e.Code != abi.Timeout || !strings.Contains(e.Message, "fake") {
		t.Fatalf("want TIMEOUT naming the server, got %v", e)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %s", d)
	}
	if len(m.PIDs()) != 0 {
		t.Fatal("a server that never initialized is still listed")
	}
}

func TestFakeCrashRetried(t *testing.T) {
	m, _ := fakeManager(t, "crashonce", map[string]string{"a.go": "package a\nvar x = 1\n"}, Options{})
	res, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDefinition, Path: "a.go", Line: 2, Column: 5})
	if e != nil || len(res.Locations) != 1 {
		t.Fatalf("the call that killed the server was not retried: %+v %v", res, e)
	}
}

func TestFakePushedDiagnosticsFollowWrites(t *testing.T) {
	m, root := fakeManager(t, "ok", map[string]string{"a.go": "// 😀 first\npackage a\n"}, Options{})
	res, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDiagnostics, Path: "a.go"})
	if e != nil || len(res.Diagnostics) != 1 || res.Diagnostics[0].Message != "// 😀 first" || res.Pulled {
		t.Fatalf("first: %+v %v", res, e)
	}
	d := res.Diagnostics[0]
	if d.Column != 3 || d.EndColumn != 4 || d.Severity != "warning" || d.Code != "7" {
		t.Fatalf("converted wrongly: %+v", d)
	}
	// A write by juju (the journal's observer) reaches the server before
	// the next query.
	writeObserved(t, m, root, "a.go", "// second\npackage a\n")
	res, e = ask(t, m, abi.LSPRequest{Op: abi.LSPDiagnostics, Path: "a.go"})
	if e != nil || len(res.Diagnostics) != 1 || res.Diagnostics[0].Message != "// second" {
		t.Fatalf("after the write: %+v %v", res, e)
	}
	// Every open file.
	res, e = ask(t, m, abi.LSPRequest{Op: abi.LSPDiagnostics})
	if e != nil || len(res.Diagnostics) != 1 || res.Diagnostics[0].Path != "a.go" {
		t.Fatalf("all: %+v %v", res, e)
	}
}

// TestFakeUnsettledDiagnosticsSaid: when the wait runs out before the
// server reported on a file's current text, the answer says so, and
// whether it sent nothing at all (an empty list is then no verdict) or
// only diagnostics of an older text.
func TestFakeUnsettledDiagnosticsSaid(t *testing.T) {
	m, _ := fakeManager(t, "mute", map[string]string{"a.go": "package a\n"}, Options{ReadyTimeout: time.Second})
	for _, req := range []abi.LSPRequest{{Op: abi.LSPDiagnostics, Path: "a.go"}, {Op: abi.LSPDiagnostics}} {
		res, e := ask(t, m, req)
		if e != nil || len(res.Diagnostics) != 0 || fmt.Sprint(res.Unsettled) != "[{a.go true}]" {
			t.Fatalf("path %q, a server that pushes nothing: %+v %v", req.Path, res, e)
		}
	}

	m, root := fakeManager(t, "openonly", map[string]string{"a.go": "// first\npackage a\n"}, Options{ReadyTimeout: time.Second})
	res, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDiagnostics, Path: "a.go"})
	if e != nil || len(res.Diagnostics) != 1 || res.Unsettled != nil {
		t.Fatalf("opened: %+v %v", res, e)
	}
	writeObserved(t, m, root, "a.go", "// second\npackage a\n")
	res, e = ask(t, m, abi.LSPRequest{Op: abi.LSPDiagnostics, Path: "a.go"})
	if e != nil || len(res.Diagnostics) != 1 || res.Diagnostics[0].Message != "// first" || fmt.Sprint(res.Unsettled) != "[{a.go false}]" {
		t.Fatalf("changed, not reported on: %+v %v", res, e)
	}
}

// writeObserved writes name under root as juju would, and tells m as the
// journal's observer does.
func writeObserved(t *testing.T, m *Manager, root, name, content string) {
	t.Helper()
	abs := filepath.Join(root, name)
	if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(abs)
	m.Observe([]journal.Touched{{Path: real, Action: abi.ActionModified}})
}

func TestFakeCloseKillsGroup(t *testing.T) {
	m, _ := fakeManager(t, "ok", map[string]string{"a.go": "package a\n"}, Options{})
	if _, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDefinition, Path: "a.go", Line: 1, Column: 1}); e != nil {
		t.Fatal(e)
	}
	pids := m.PIDs()
	if len(pids) != 1 {
		t.Fatalf("pids %v", pids)
	}
	m.Close(context.Background())
	if err := syscall.Kill(-pids[0], 0); err == nil {
		t.Fatalf("process group %d still alive after Close", pids[0])
	}
	if _, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDocumentSymbols, Path: "a.go"}); e == nil {
		t.Fatal("a call after Close succeeded")
	}
}

// TestFakeConcurrentCalls hammers one server from many goroutines while
// the file changes: versions stay in order, nothing races (go test -race).
func TestFakeConcurrentCalls(t *testing.T) {
	m, root := fakeManager(t, "ok", map[string]string{"a.go": "// v0\npackage a\n", "b.go": "// b\npackage a\n"}, Options{})
	done := make(chan error, 16)
	for i := range 16 {
		go func() {
			path := "a.go"
			if i%2 == 1 {
				path = "b.go"
			}
			if i%4 == 0 {
				os.WriteFile(filepath.Join(root, "a.go"), []byte("// v"+string(rune('a'+i))+"\npackage a\n"), 0o644)
			}
			req := abi.LSPRequest{Op: abi.LSPDefinition, Path: path, Line: 1, Column: 2}
			if i%3 == 0 {
				req = abi.LSPRequest{Op: abi.LSPDiagnostics, Path: path}
			}
			_, e := ask(t, m, req)
			if e != nil {
				done <- e
				return
			}
			done <- nil
		}()
	}
	for range 16 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestFakeWatchedFiles: files juju writes that the server does not have
// open are told as watched-file events, created, changed or deleted; a
// secret is never named.
func TestFakeWatchedFiles(t *testing.T) {
	m, root := fakeManager(t, "ok", map[string]string{"a.go": "package a\n", "c.go": "package a\n"}, Options{})
	if _, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDefinition, Path: "a.go", Line: 1, Column: 1}); e != nil {
		t.Fatal(e)
	}
	real, _ := filepath.EvalSymlinks(root)
	os.WriteFile(filepath.Join(root, "b.go"), []byte("package a\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".env"), []byte("K=v\n"), 0o644)
	os.Remove(filepath.Join(root, "c.go"))
	m.Observe([]journal.Touched{
		{Path: filepath.Join(real, "b.go"), Action: abi.ActionCreated},
		{Path: filepath.Join(real, ".env"), Action: abi.ActionCreated},
		{Path: filepath.Join(real, "c.go"), Action: abi.ActionDeleted},
	})
	res, e := ask(t, m, abi.LSPRequest{Op: abi.LSPWorkspaceSymbols, Path: "a.go"})
	if e != nil {
		t.Fatal(e)
	}
	var got []string
	for _, s := range res.Symbols {
		got = append(got, s.Name)
	}
	if strings.Join(got, " ") != "event:1:b.go event:3:c.go" {
		t.Fatalf("watched-file events: %v", got)
	}
}

// TestFakeCommandWritesNamed: once the workspace's epoch moves (a command
// ran), the files under the server's root modified since the last look
// are named to it as created, though no journal wrote them; a secret, and
// a folder no server needs, are never named, and nothing is named again
// while the epoch stays.
func TestFakeCommandWritesNamed(t *testing.T) {
	epoch := "e0"
	m, root := fakeManager(t, "ok", map[string]string{"a.go": "package a\n"}, Options{Epoch: func() string { return epoch }})
	if _, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDefinition, Path: "a.go", Line: 1, Column: 1}); e != nil {
		t.Fatal(e)
	}
	os.WriteFile(filepath.Join(root, "b.go"), []byte("package a\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".env"), []byte("K=v\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "node_modules", "x"), 0o755)
	os.WriteFile(filepath.Join(root, "node_modules", "x", "x.go"), []byte("package x\n"), 0o644)
	symbols := func() string { return watchedEvents(t, m) }
	if got := symbols(); got != "" {
		t.Fatalf("named before the epoch moved: %v", got)
	}
	epoch = "e1"
	if got := symbols(); got != "event:1:b.go" {
		t.Fatalf("watched-file events after a command: %v", got)
	}
	if got := symbols(); got != "event:1:b.go" {
		t.Fatalf("named again while the epoch stayed: %v", got)
	}
}

// TestFakeCommandDeletionsNamed: once the workspace's epoch moves, the
// files the last look over the server's root saw (the first one is taken
// as the server starts) and this one does not find are named to it as
// deleted, a whole removed folder's too; a secret and a file in a folder
// no server needs are never named, not even as deleted.
func TestFakeCommandDeletionsNamed(t *testing.T) {
	epoch := "e0"
	m, root := fakeManager(t, "ok", map[string]string{
		"a.go": "package a\n", "gone.go": "package a\n", "sub/deep/x.go": "package x\n",
		".env": "K=v\n", "node_modules/y/y.go": "package y\n",
	}, Options{Epoch: func() string { return epoch }})
	if _, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDefinition, Path: "a.go", Line: 1, Column: 1}); e != nil {
		t.Fatal(e)
	}
	for _, p := range []string{"gone.go", ".env", "sub", "node_modules"} {
		if err := os.RemoveAll(filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
	}
	symbols := func() string { return watchedEvents(t, m) }
	if got := symbols(); got != "" {
		t.Fatalf("named before the epoch moved: %v", got)
	}
	epoch = "e1"
	if got := symbols(); got != "event:3:gone.go event:3:x.go" {
		t.Fatalf("watched-file events after a command: %v", got)
	}
	epoch = "e2"
	if got := symbols(); got != "event:3:gone.go event:3:x.go" {
		t.Fatalf("named again on the next look: %v", got)
	}
}

// TestRootWalkGone: a file the last look saw is called deleted only when
// this look listed the folder holding it, or the nearest folder above
// lost the entry on the way to it; a folder seen but not listed (the walk
// stopped at its bound, or the call ended) leaves its files known.
func TestRootWalkGone(t *testing.T) {
	w := &rootWalk{top: "/r",
		dirs:   map[string]bool{"/r": true, "/r/a": true, "/r/far": true},
		listed: map[string]bool{"/r": true, "/r/a": true},
	}
	for p, want := range map[string]bool{
		"/r/x.go":         true,  // its folder was listed
		"/r/a/x.go":       true,  // its folder was listed
		"/r/b/x.go":       true,  // its folder is gone from a listed one
		"/r/b/c/x.go":     true,  // so is a folder above it
		"/r/far/x.go":     false, // its folder was seen, not listed
		"/r/far/c/x.go":   false,
		"/elsewhere/x.go": false,
	} {
		if got := w.gone(p); got != want {
			t.Errorf("gone(%s) = %v, want %v", p, got, want)
		}
	}
}

// watchedEvents asks the fake server for workspace symbols, which it
// answers with every watched-file event it was sent ("event:TYPE:NAME"),
// and returns them joined by spaces.
func watchedEvents(t *testing.T, m *Manager) string {
	t.Helper()
	res, e := ask(t, m, abi.LSPRequest{Op: abi.LSPWorkspaceSymbols, Path: "a.go"})
	if e != nil {
		t.Fatal(e)
	}
	var got []string
	for _, s := range res.Symbols {
		got = append(got, s.Name)
	}
	return strings.Join(got, " ")
}

// A server's go command downloads no toolchain a go.mod names: GOTOOLCHAIN
// is local unless the owner's value downloads nothing, which is kept.
func TestLocalToolchain(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "local"},
		{"auto", "local"},
		{"go1.30.0", "local"},
		{"go1.30.0+auto", "local"},
		{"local", "local"},
		{"path", "path"},
		{"go1.30.0+path", "go1.30.0+path"},
	} {
		env := []string{"A=1"}
		if tc.in != "" {
			env = append(env, "GOTOOLCHAIN="+tc.in)
		}
		got := localToolchain(env)
		n, v := 0, ""
		for _, kv := range got {
			if s, ok := strings.CutPrefix(kv, "GOTOOLCHAIN="); ok {
				n, v = n+1, s
			}
		}
		if n != 1 || v != tc.want || !slices.Contains(got, "A=1") {
			t.Errorf("GOTOOLCHAIN=%q: got %q, want GOTOOLCHAIN=%s once", tc.in, got, tc.want)
		}
	}
}

//go:build unix

package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/jujutools/juju/internal/lspconfig"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// Tests of the claims of docs/SECURITY.md, "Language servers": what juju
// returns from a server is filtered by the path policy, a server's
// workspace/applyEdit is refused, and a server's environment is scrubbed.
//
// They use a second fake server, separate from fakeServer: the test binary
// run with the arguments claimsFakeArg MODE OUT (arguments rather than the
// environment, so that the fake runs with exactly the environment juju
// gives it). It is picked in init, before TestMain.

const claimsFakeArg = "juju-claims-fake-lsp"

func init() {
	if len(os.Args) == 4 && os.Args[1] == claimsFakeArg {
		claimsFakeServer(os.Args[2], os.Args[3])
		os.Exit(0)
	}
}

// claimsFakeServer speaks LSP on stdin and stdout. Its working folder is
// the server root juju chose. Modes:
//   - "env": writes os.Environ(), one a line, to out before anything else;
//     definition answers null.
//   - "index": a server that indexes every file of its root, as gopls
//     and others do, secrets included: it reads them from disk at each
//     request. Definition and references answer every occurrence of the
//     word at the position, in every file; workspace/symbol every word
//     that begins with the query; documentSymbol (flat) every occurrence,
//     in every file, of each word of the asked file. Files are read in
//     lexical order of their names.
//   - "applyedit": at definition it first asks juju to apply an edit
//     (workspace/applyEdit) that rewrites a.go and creates new.go, and
//     writes juju's answer (or its error) as JSON to out; then it answers
//     a location in b.go.
//   - "flood": at didOpen, pushes diagnostics for 5,000 files that do not
//     exist, 2,000 for the document and begins 2,000 progress tokens it
//     never ends; definition answers null.
//   - "silent": never answers definition.
//   - "quote": pull diagnostics of a.go whose messages quote file:line
//     places: .env, the file out (outside the root), a.go itself, a
//     file of GOROOT, .env through a name with spaces and "..", out
//     through a link followed before "..", an excerpt with no place, a
//     place that is nowhere, and a header of the root whose name has
//     spaces.
func claimsFakeServer(mode, out string) {
	if mode == "env" {
		if err := os.WriteFile(out, []byte(strings.Join(os.Environ(), "\n")), 0o644); err != nil {
			os.Exit(4)
		}
	}
	cwd, _ := os.Getwd()
	uri := func(name string) string { return fileURI(filepath.Join(cwd, name)) }
	loc := func(name string, line int) map[string]any {
		pos := map[string]any{"line": line, "character": 0}
		return map[string]any{"uri": uri(name), "range": map[string]any{"start": pos, "end": pos}}
	}
	done := make(chan struct{})
	h := jsonrpc2.HandlerWithError(func(ctx context.Context, c *jsonrpc2.Conn, r *jsonrpc2.Request) (any, error) {
		switch r.Method {
		case "initialize":
			if mode == "quote" {
				return map[string]any{"capabilities": map[string]any{"diagnosticProvider": map[string]any{}}}, nil
			}
			if mode == "index" {
				return map[string]any{"capabilities": map[string]any{"definitionProvider": true, "referencesProvider": true,
					"documentSymbolProvider": true, "workspaceSymbolProvider": true}}, nil
			}
			return map[string]any{"capabilities": map[string]any{"definitionProvider": true, "referencesProvider": true}}, nil
		case "workspace/symbol":
			var p struct {
				Query string `json:"query"`
			}
			json.Unmarshal(*r.Params, &p)
			syms := []any{}
			for _, w := range indexWords(cwd) {
				if strings.HasPrefix(w.word, p.Query) {
					syms = append(syms, w.symbol())
				}
			}
			return syms, nil
		case "textDocument/documentSymbol":
			var p struct {
				TextDocument struct {
					URI string `json:"uri"`
				} `json:"textDocument"`
			}
			json.Unmarshal(*r.Params, &p)
			mine := map[string]bool{}
			for _, w := range indexWords(cwd) {
				if fileURI(w.path) == p.TextDocument.URI {
					mine[w.word] = true
				}
			}
			syms := []any{}
			for _, w := range indexWords(cwd) {
				if mine[w.word] {
					syms = append(syms, w.symbol())
				}
			}
			return syms, nil
		case "textDocument/diagnostic":
			at := func(line int, msg string) map[string]any {
				pos := map[string]any{"line": line, "character": 0}
				return map[string]any{"range": map[string]any{"start": pos, "end": pos}, "severity": 1, "message": msg}
			}
			return map[string]any{"kind": "full", "items": []any{
				at(0, "./.env:1:1: error: 'DB_PASSWORD' undeclared here\n    1 | DB_PASSWORD=claims-quoted-secret"),
				at(1, "In file included from a.go:2:\n"+out+":2:5: error: expected ';'\n    2 | aws_secret_access_key = claims-outside-secret"),
				at(1, "cannot use y (variable of type int) as string value (see a.go:2:9)"),
				at(1, filepath.Join(runtime.GOROOT(), "src", "fmt", "print.go")+":12:1: note: declared here"),
				at(1, "# example.com/w\nIn file included from a.go:2:\nx/a b/c/../../../.env:1:13: error: 'claims' undeclared\n    1 | DB_PASSWORD=claims-quoted-secret"),
				at(1, "lnk/../outside/credentials:2:1: error: expected ';'\n    2 | aws_secret_access_key = claims-outside-secret"),
				at(1, "undefined: x\n    1 | DB_PASSWORD=claims-quoted-secret"),
				at(1, "$WORK/b001/_cgo_main.c:1:1: error: claims-unplaced"),
				at(1, "In file included from a.go:2:\nx/a b/c/h.h:1:5: error: unknown type name 'claims'\n    1 | int claims;"),
			}}, nil
		case "textDocument/definition":
			switch mode {
			case "silent":
				<-done // never answers
				return nil, nil
			case "index":
				return indexOccurrences(cwd, r.Params), nil
			case "applyedit":
				edit := map[string]any{
					"label": "claims",
					"edit": map[string]any{
						"changes": map[string]any{
							uri("a.go"): []any{map[string]any{
								"range": map[string]any{
									"start": map[string]any{"line": 0, "character": 0},
									"end":   map[string]any{"line": 1, "character": 0}},
								"newText": "HACKED BY THE SERVER\n"}},
						},
						"documentChanges": []any{map[string]any{"kind": "create", "uri": uri("new.go")}},
					},
				}
				var answer json.RawMessage
				rec := map[string]any{}
				if err := c.Call(ctx, "workspace/applyEdit", edit, &answer); err != nil {
					rec["error"] = err.Error()
				} else {
					rec["answer"] = answer
				}
				b, _ := json.Marshal(rec)
				if err := os.WriteFile(out, b, 0o644); err != nil {
					os.Exit(4)
				}
				return []any{loc("b.go", 1)}, nil
			}
			return nil, nil
		case "textDocument/references":
			if mode == "index" {
				return indexOccurrences(cwd, r.Params), nil
			}
			return []any{}, nil
		case "textDocument/didOpen":
			if mode == "flood" {
				var p struct {
					TextDocument struct {
						URI string `json:"uri"`
					} `json:"textDocument"`
				}
				json.Unmarshal(*r.Params, &p)
				diag := map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 1}}, "message": "m"}
				for i := range 5000 {
					c.Notify(ctx, "textDocument/publishDiagnostics", map[string]any{"uri": uri(fmt.Sprintf("gen/f%d.go", i)), "diagnostics": []any{diag}})
				}
				many := make([]any, 2000)
				for i := range many {
					many[i] = diag
				}
				c.Notify(ctx, "textDocument/publishDiagnostics", map[string]any{"uri": p.TextDocument.URI, "diagnostics": many})
				for i := range 2000 {
					c.Notify(ctx, "$/progress", map[string]any{"token": fmt.Sprint("t", i), "value": map[string]any{"kind": "begin", "title": "x"}})
				}
			}
			return nil, nil
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
	// Async: the handler of definition waits for juju's answer to
	// applyEdit, which the read loop must still be free to read.
	conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(stdio{}, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.AsyncHandler(h))
	select {
	case <-done:
	case <-conn.DisconnectNotify():
	}
}

// claimsManager runs claimsFakeServer in mode over a fresh workspace
// holding files, with the policy cfg (its Roots are set here). It returns
// the manager, the workspace root and the path the fake writes out to.
// opts.Env is left as given: nil means juju's own scrubbed environment.
func claimsManager(t *testing.T, mode string, files map[string]string, cfg policy.Config, opts Options) (*Manager, string, string) {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg.Roots = []string{root}
	pol, err := policy.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pol.Close() })
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	opts.Servers = []lspconfig.Server{{Name: "claims", Command: []string{exe, claimsFakeArg, mode, out}, Languages: []string{"go"}}}
	m := New(pol, opts)
	t.Cleanup(func() { m.Close(context.Background()) })
	return m, root, out
}

// indexWord is one occurrence of a word in a file the "index" fake read.
type indexWord struct {
	path             string // absolute
	line, start, end int    // 0-based; the fixtures are ASCII, so bytes are UTF-16 units
	word             string
}

func (w indexWord) loc() map[string]any {
	return map[string]any{"uri": fileURI(w.path), "range": map[string]any{
		"start": map[string]any{"line": w.line, "character": w.start},
		"end":   map[string]any{"line": w.line, "character": w.end}}}
}

func (w indexWord) symbol() map[string]any {
	return map[string]any{"name": w.word, "kind": 13, "location": w.loc()}
}

// indexWords reads every regular file under root, in lexical order, as
// a language server indexes a workspace: secrets and denied files too.
func indexWords(root string) []indexWord {
	var out []indexWord
	word := regexp.MustCompile(`[A-Za-z0-9_]+`)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range word.FindAllStringIndex(line, -1) {
				out = append(out, indexWord{path: p, line: i, start: m[0], end: m[1], word: line[m[0]:m[1]]})
			}
		}
		return nil
	})
	return out
}

// indexOccurrences answers definition and references for the "index"
// fake: every occurrence, in every file, of the word at the position.
func indexOccurrences(root string, params *json.RawMessage) []any {
	var p textDocumentPosition
	json.Unmarshal(*params, &p)
	words := indexWords(root)
	at := ""
	for _, w := range words {
		if fileURI(w.path) == p.TextDocument.URI && w.line == p.Position.Line && w.start <= p.Position.Character && p.Position.Character < w.end {
			at = w.word
		}
	}
	out := []any{}
	for _, w := range words {
		if w.word == at {
			out = append(out, w.loc())
		}
	}
	return out
}

// TestClaimLSPWithheldContentSaysNothing checks SECURITY.md, "Language
// servers": a place in a secret or denied file is dropped without a word,
// so no answer of a semantic question depends on what such a file holds.
// A language server indexes the whole workspace, secrets included; had
// juju counted the places it drops, a workspace-symbols query would say
// whether a name in .env begins with its prefix, one character a query.
// Two workspaces alike in what juju shows, one whose .env (first in the
// server's order) and denied file (last) hold the word asked about, the
// other whose withheld files do not, get the same answers, byte for byte:
// definitions, references, workspace symbols and flat document symbols,
// at the host's cap and at a cap as large as what is shown.
func TestClaimLSPWithheldContentSaysNothing(t *testing.T) {
	visible := map[string]string{
		"a.go": "package a\nvar needle = 1\nvar x = needle\n",
		"b.go": "package a\nvar y = needle\n",
	}
	workspace := func(hit bool) *Manager {
		files := map[string]string{
			".env":         "OTHER=claims-secret-value\n",
			"zz_denied.go": "package a // claims-denied-text\n",
		}
		if hit {
			files[".env"] = "needle=claims-secret-value\nneedleToken=claims-secret-two\n"
			files["zz_denied.go"] = "package a // needle needleDenied claims-denied-text\n"
		}
		for p, c := range visible {
			files[p] = c
		}
		m, _, _ := claimsManager(t, "index", files, policy.Config{Deny: []string{"zz_denied.go"}}, Options{})
		return m
	}
	hit, miss := workspace(true), workspace(false)
	answer := func(m *Manager, req abi.LSPRequest) (string, *abi.LSPResult) {
		t.Helper()
		res, e := ask(t, m, req)
		if e != nil {
			t.Fatalf("%s: %v", req.Op, e)
		}
		b, _ := json.Marshal(res)
		for _, leak := range []string{".env", "zz_denied", "claims-", "Token", "needleDenied"} {
			if strings.Contains(string(b), leak) {
				t.Errorf("%s: the answer names %q: %s", req.Op, leak, b)
			}
		}
		return string(b), res
	}
	for _, req := range []abi.LSPRequest{
		{Op: abi.LSPDefinition, Path: "a.go", Line: 3, Column: 9},
		{Op: abi.LSPReferences, Path: "a.go", Line: 3, Column: 9, IncludeDeclaration: true},
		{Op: abi.LSPWorkspaceSymbols, Query: "needle"},
		{Op: abi.LSPDocumentSymbols, Path: "a.go"},
	} {
		// The withheld files' matches come first and last in the
		// server's answer: a cap as large as what is shown is reached
		// just before the last of them.
		_, shown := answer(miss, req)
		n := len(shown.Locations) + len(shown.Symbols)
		if n < 3 {
			t.Fatalf("%s: the visible files' %d results are missing: %+v", req.Op, n, shown)
		}
		for _, max := range []int{0, n} {
			req.MaxResults = max
			h, _ := answer(hit, req)
			s, _ := answer(miss, req)
			if h != s {
				t.Errorf("%s (maxResults %d): the answer depends on withheld content:\n matching it: %s\n not:         %s", req.Op, max, h, s)
			}
		}
	}
}

// TestClaimLSPApplyEditRefused checks SECURITY.md, "Language servers": "A
// server that asks juju to apply an edit (workspace/applyEdit) is
// refused: files change only through the journal." The server asks to
// rewrite a.go and to create new.go; the answer it receives must say
// applied: false, and neither file may change.
func TestClaimLSPApplyEditRefused(t *testing.T) {
	const a = "package a\nvar x = y\n"
	files := map[string]string{"a.go": a, "b.go": "package a\nvar y = 1\n"}
	m, root, out := claimsManager(t, "applyedit", files, policy.Config{}, Options{})
	res, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDefinition, Path: "a.go", Line: 2, Column: 9})
	if e != nil {
		t.Fatal(e)
	}
	if len(res.Locations) != 1 || res.Locations[0].Path != "b.go" {
		t.Fatalf("the definition after the edit request: %+v", res.Locations)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the fake server recorded no answer to its applyEdit: %v", err)
	}
	var rec struct {
		Answer *struct {
			Applied       *bool  `json:"applied"`
			FailureReason string `json:"failureReason"`
		} `json:"answer"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatalf("record %s: %v", raw, err)
	}
	if rec.Answer == nil || rec.Answer.Applied == nil || *rec.Answer.Applied {
		t.Errorf("workspace/applyEdit was not answered applied: false: %s", raw)
	}
	if got, err := os.ReadFile(filepath.Join(root, "a.go")); err != nil || string(got) != a {
		t.Errorf("a.go changed: %q %v", got, err)
	}
	if _, err := os.Lstat(filepath.Join(root, "new.go")); !os.IsNotExist(err) {
		t.Errorf("new.go exists after a refused edit: %v", err)
	}
}

// TestClaimLSPScrubbedEnvironment checks SECURITY.md, "Language servers":
// a server runs with "an environment scrubbed of secrets as commands get
// it (JUJU_*, tokens, passwords, cloud credentials …)". With GITHUB_TOKEN,
// DATABASE_URL, JUJU_HOME and AWS_SECRET_ACCESS_KEY in juju's environment
// and Options.Env left nil (juju's default), none of them may reach the
// server, while a harmless variable does (so the dump is not vacuous).
func TestClaimLSPScrubbedEnvironment(t *testing.T) {
	secrets := map[string]string{
		"GITHUB_TOKEN":          "ghp_claimsTokenValue",
		"DATABASE_URL":          "postgres://user:claimspw@db.example/app",
		"JUJU_HOME":             "/claims/juju/home",
		"AWS_SECRET_ACCESS_KEY": "claimsAwsSecret",
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	t.Setenv("JUJU_CLAIMS_PLAIN", "") // a JUJU_ name, empty: still withheld
	t.Setenv("CLAIMS_LSP_PLAIN", "visible")
	t.Setenv("CGO_ENABLED", "1")
	m, _, out := claimsManager(t, "env", map[string]string{"a.go": "package a\n"}, policy.Config{}, Options{})
	if _, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDefinition, Path: "a.go", Line: 1, Column: 1}); e != nil {
		t.Fatal(e)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the fake server wrote no environment: %v", err)
	}
	env := map[string]string{}
	for _, kv := range strings.Split(string(raw), "\n") {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	if env["CLAIMS_LSP_PLAIN"] != "visible" {
		t.Fatalf("the server did not get juju's ordinary environment: %q", raw)
	}
	if env["CGO_ENABLED"] != "0" || strings.Count(string(raw), "CGO_ENABLED=") != 1 {
		t.Errorf("the server may run the C compiler on the repository's cgo preambles: %q", raw)
	}
	for k, v := range secrets {
		if _, ok := env[k]; ok {
			t.Errorf("%s reached the language server", k)
		}
		if strings.Contains(string(raw), v) {
			t.Errorf("the value of %s reached the language server", k)
		}
	}
	for k := range env {
		if strings.HasPrefix(k, "JUJU_") || k == "JUJU" {
			t.Errorf("%s reached the language server", k)
		}
	}
}

// A diagnostic's message may quote the files the server read (cgo runs
// the C compiler, whose errors quote an #include'd .env line by line): a
// message naming a secret or denied file:line, or a file outside the roots
// that is no system file, is withheld whole; others are kept. Names are
// read as the compiler writes them (spaces and all) and looked up as the
// kernel does (a link before ".."); a place juju cannot find, or source
// text under no place, is withheld too.
func TestClaimLSPWithholdsQuotingMessages(t *testing.T) {
	if runtime.GOROOT() == "" {
		t.Skip("no GOROOT to quote a system file from")
	}
	tmp := t.TempDir()
	outside := filepath.Join(tmp, "outside", "credentials")
	os.MkdirAll(filepath.Join(tmp, "sub"), 0o755)
	os.MkdirAll(filepath.Dir(outside), 0o755)
	if err := os.WriteFile(outside, []byte("[default]\naws_secret_access_key = claims-outside-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"a.go": "package a\nvar x = y\n", ".env": "DB_PASSWORD=claims-quoted-secret\n", "x/a b/c/h.h": "int claims;\n"}
	root := t.TempDir()
	for p, c := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(c), 0o644)
	}
	if err := os.Symlink(filepath.Join(tmp, "sub"), filepath.Join(root, "lnk")); err != nil {
		t.Fatal(err)
	}
	pol, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pol.Close() })
	exe, _ := os.Executable()
	m := New(pol, Options{Servers: []lspconfig.Server{{Name: "claims", Command: []string{exe, claimsFakeArg, "quote", outside}, Languages: []string{"go"}}}})
	t.Cleanup(func() { m.Close(context.Background()) })
	res, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDiagnostics, Path: "a.go"})
	if e != nil {
		t.Fatal(e)
	}
	want := []string{"juju withheld", "juju withheld", "cannot use y", "print.go:12:1",
		"juju withheld", "juju withheld", "juju withheld", "juju withheld", "unknown type name 'claims'"}
	if len(res.Diagnostics) != len(want) {
		t.Fatalf("diagnostics: %+v", res.Diagnostics)
	}
	b, _ := json.Marshal(res)
	for _, leak := range []string{"claims-quoted-secret", "claims-outside-secret", "DB_PASSWORD", "aws_secret", "claims-unplaced"} {
		if strings.Contains(string(b), leak) {
			t.Errorf("the answer quotes %q: %s", leak, b)
		}
	}
	for i, want := range want {
		if !strings.Contains(res.Diagnostics[i].Message, want) {
			t.Errorf("diagnostic %d: %q, want it to hold %q", i, res.Diagnostics[i].Message, want)
		}
	}
}

// What a server's notifications make juju keep is bounded: diagnostics
// pushed for thousands of files, thousands of diagnostics for one, and
// progress begun and never ended.
func TestClaimLSPNotificationsAreBounded(t *testing.T) {
	m, _, _ := claimsManager(t, "flood", map[string]string{"a.go": "package a\nvar x = y\n"}, policy.Config{}, Options{ReadyTimeout: 2 * time.Second})
	if _, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDefinition, Path: "a.go", Line: 2, Column: 9}); e != nil {
		t.Fatal(e)
	}
	var c *client
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if r := m.running(); len(r) == 1 {
			c = r[0]
			c.mu.Lock()
			n, p := len(c.pushed), len(c.progress)
			c.mu.Unlock()
			if n >= maxPushed && p >= maxProgress {
				break
			}
		}
	}
	if c == nil {
		t.Fatal("no server running")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pushed) > maxPushed+1 || len(c.progress) > maxProgress {
		t.Errorf("kept %d files of pushed diagnostics and %d progress tokens, past %d and %d", len(c.pushed), len(c.progress), maxPushed, maxProgress)
	}
	for uri, p := range c.pushed {
		if len(p.items) > maxPushedItems {
			t.Errorf("%s: %d diagnostics kept, past %d", uri, len(p.items), maxPushedItems)
		}
	}
}

// A server that never answers gives TIMEOUT a little before the plugin
// call's deadline, so the plugin answers instead of being stopped.
func TestClaimLSPSilentServerTimesOutBeforeTheCall(t *testing.T) {
	m, _, _ := claimsManager(t, "silent", map[string]string{"a.go": "package a\nvar x = y\n"}, policy.Config{}, Options{})
	const deadline = deadlineMargin + 1500*time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	begin := time.Now()
	_, _, e := m.serve(ctx, &abi.LSPRequest{Op: abi.LSPDefinition, Path: "a.go", Line: 2, Column: 9}, nil)
	if e == nil || e.Code != abi.Timeout {
		t.Fatalf("a silent server: %v", e)
	}
	if took := time.Since(begin); took >= deadline {
		t.Errorf("answered after the call's deadline: %v", took)
	}
}

// A server whose program lies inside the workspace is not started: juju
// runs it outside any sandbox, and a confined command could replace it.
func TestClaimLSPProgramInsideTheRootsRefused(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\nvar x = y\n"), 0o644)
	exe, _ := os.Executable()
	inside := filepath.Join(root, "bin", "server")
	os.MkdirAll(filepath.Dir(inside), 0o755)
	if err := os.Symlink(exe, inside); err != nil {
		t.Fatal(err)
	}
	pol, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pol.Close() })
	m := New(pol, Options{Servers: []lspconfig.Server{{Name: "claims", Command: []string{inside, claimsFakeArg, "index", filepath.Join(t.TempDir(), "out")}, Languages: []string{"go"}}}})
	t.Cleanup(func() { m.Close(context.Background()) })
	_, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDefinition, Path: "a.go", Line: 2, Column: 9})
	if e == nil || e.Code != abi.PathDenied || !strings.Contains(e.Message, "inside the workspace") {
		t.Fatalf("a server program inside the root: %v", e)
	}
	if len(m.running()) != 0 {
		t.Error("the server was started")
	}
}

// TestReferencesCutAfterSorting: when there are more references than
// maxResults, those kept are the first by path and position, not the
// first the server listed. The fake lists a/b.go's before a.go's (the
// order of a walk); sorted, a.go comes first.
func TestReferencesCutAfterSorting(t *testing.T) {
	files := map[string]string{
		"a.go":   "package a\nvar needle = 1\n",
		"a/b.go": "package b\nvar y = needle\nvar z = needle\n",
	}
	m, _, _ := claimsManager(t, "index", files, policy.Config{}, Options{})
	res, e := ask(t, m, abi.LSPRequest{Op: abi.LSPReferences, Path: "a.go", Line: 2, Column: 6, IncludeDeclaration: true, MaxResults: 2})
	if e != nil {
		t.Fatal(e)
	}
	var got []string
	for _, l := range res.Locations {
		got = append(got, fmt.Sprintf("%s:%d", l.Path, l.Line))
	}
	if want := []string{"a.go:2", "a/b.go:2"}; !res.Truncated || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("kept %v (truncated %v), want %v and truncated", got, res.Truncated, want)
	}
}

package test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// juju serve gives an HTTP client what juju stdio gives a stdio client:
// the same tools, instructions, results and error codes (bad arguments an
// INVALID_ARGUMENT result, an unknown tool a JSON-RPC error), with every
// call audited under the client's name — over the
// session protocols (2025-03-26, 2025-11-25) and the stateless one.
func TestServeTools(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted")
	stdio := start(t, root, "--mode", "trusted")
	want, err := stdio.c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, version := range []string{"2025-03-26", "2025-11-25", mcp.LATEST_PROTOCOL_VERSION} {
		t.Run(version, func(t *testing.T) {
			s := srv.connect(t, "e2e-http-"+version, version)
			if s.init.Instructions != stdio.init.Instructions || s.init.Instructions == "" {
				t.Errorf("instructions differ from stdio's:\n%s", s.init.Instructions)
			}
			got, err := s.c.ListTools(t.Context(), mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Tools) != len(want.Tools) {
				t.Fatalf("%d tools over HTTP, %d over stdio", len(got.Tools), len(want.Tools))
			}
			if !strings.Contains(s.ok("read_file", map[string]any{"path": "a.txt"}), "alpha") {
				t.Error("read_file did not return the file")
			}
			s.fail("read_file", map[string]any{"path": "missing.txt"}, "NOT_FOUND")
			s.fail("read_file", map[string]any{"path": "../outside.txt"}, "PATH_DENIED")
			s.fail("read_file", map[string]any{"path": 42}, "INVALID_ARGUMENT")
			if _, err := s.callErr("no_such_tool", map[string]any{}); !errors.Is(err, mcp.ErrInvalidParams) {
				t.Errorf("an unknown tool: want a JSON-RPC invalid params error, got %v", err)
			}
			name := "w-" + version + ".txt"
			s.ok("write_file", map[string]any{"path": name, "content": "written over HTTP\n"})
			if b, err := os.ReadFile(filepath.Join(root, name)); err != nil || string(b) != "written over HTTP\n" {
				t.Fatalf("write_file did not land: %q %v", b, err)
			}
		})
	}
	clients := map[string]bool{}
	for _, e := range auditJSON(t, srv.home, root) {
		clients[e.Client] = true
	}
	for _, version := range []string{"2025-03-26", "2025-11-25", mcp.LATEST_PROTOCOL_VERSION} {
		if !clients["e2e-http-"+version] {
			t.Errorf("the audit does not name client e2e-http-%s: %v", version, clients)
		}
	}
}

// Over HTTP, as over stdio, arguments that do not fit the input schema
// are INVALID_ARGUMENT tool results naming the argument at fault, audited,
// for every protocol version; arguments that are not an object too.
func TestServeBadArgumentsAreToolResults(t *testing.T) {
	root := workspace(t, map[string]string{"a": "a"})
	srv := startServe(t, root)
	for _, version := range []string{"2025-03-26", "2025-11-25", mcp.LATEST_PROTOCOL_VERSION} {
		t.Run(version, func(t *testing.T) {
			checkBadArguments(t, srv.connect(t, "e2e-bad-"+version, version), "e2e-bad-"+version)
		})
	}
	hdr := srv.bearer()
	hdr["Mcp-Session-Id"] = srv.initSession(t, hdr)
	hdr["Mcp-Protocol-Version"] = "2025-11-25"
	res, body := srv.raw(t, "POST", "/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":"a"}}`, hdr)
	if res.StatusCode != 200 || !strings.Contains(body, `"isError":true`) ||
		!strings.Contains(body, "INVALID_ARGUMENT: the arguments do not fit the input schema of read_file: the arguments must be a JSON object, not a string") {
		t.Fatalf("arguments as a string: want an INVALID_ARGUMENT result, got %d %s", res.StatusCode, body)
	}
}

// `juju token` prints the token juju serve accepts, kept 0600 in the
// config directory; --token-file makes and reads another one, and a token
// file inside the workspace is refused.
func TestServeToken(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	srv := startServe(t, root)
	printed := strings.TrimSpace(juju(t, srv.home, root, "token"))
	if printed != srv.token || len(printed) < 40 {
		t.Fatalf("juju token printed %q, the server's token file holds %q", printed, srv.token)
	}
	st, err := os.Stat(filepath.Join(srv.home, "config", "token"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", st, err)
	}
	if strings.Contains(srv.log.String(), srv.token) {
		t.Fatal("juju serve logged its token")
	}

	other := filepath.Join(t.TempDir(), "other-token")
	srv2 := startServe(t, root, "--token-file", other)
	tok := strings.TrimSpace(juju(t, srv2.home, root, "token", "--token-file", other))
	if tok == "" || tok == printed {
		t.Fatalf("--token-file token %q", tok)
	}
	srv2.token = tok
	srv2.connect(t, "token-file", "2025-11-25").ok("read_file", map[string]any{"path": "a.txt"})
	if res, _ := srv2.raw(t, "POST", "/mcp", writeCall("x.txt", true), merge(modernHeaders("write_file"), map[string]string{"Authorization": "Bearer " + printed})); res.StatusCode != 401 {
		t.Fatalf("the default token opened a server started with --token-file: %d", res.StatusCode)
	}

	out, err := jujuErr(t.TempDir(), root, "serve", "--root", root, "--addr", "127.0.0.1:0", "--token-file", filepath.Join(root, "tok"))
	if err == nil || !strings.Contains(out, "inside the workspace") {
		t.Fatalf("a token file inside the workspace: %v\n%s", err, out)
	}
	mustNotExist(t, root, "tok")
}

// The line juju serve prints for local clients works as printed, pasted
// into a shell of the owner's: its $(…) prints the token this server
// takes, from a shell without juju on its PATH (after `make serve`,
// bin/juju is on none) and without the JUJU_HOME the server runs under;
// with --token-file too.
func TestServePrintedTokenCommand(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	other := filepath.Join(t.TempDir(), "other token")
	for _, args := range [][]string{nil, {"--token-file", other}} {
		srv := startServe(t, root, args...)
		// The lines for clients follow the address juju serve waits for.
		line := ""
		waitFor(t, "juju serve's claude mcp add line", func() bool {
			for l := range strings.SplitSeq(srv.log.String(), "\n") {
				if strings.Contains(l, "claude mcp add --transport http juju "+srv.url) && strings.HasSuffix(l, `)"`) {
					line = l
				}
			}
			return line != ""
		})
		_, cmd, ok := strings.Cut(line, `--header "Authorization: Bearer $(`)
		cmd, _, ok2 := strings.Cut(cmd, `)"`)
		if !ok || !ok2 {
			t.Fatalf("juju serve printed no claude mcp add line with $(…):\n%s", srv.log)
		}
		sh := exec.Command("sh", "-c", "printf %s \"$("+cmd+")\"")
		sh.Dir = t.TempDir()
		sh.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}
		out, err := sh.CombinedOutput()
		want := srv.token
		if args != nil {
			b, _ := os.ReadFile(other)
			want = strings.TrimSpace(string(b))
		}
		if err != nil || string(out) != want || want == "" {
			t.Errorf("the printed $(%s) gave %q (%v), the server takes %q", cmd, out, err, want)
		}
	}
}

// A root that holds juju's config folder (a root of the owner's home)
// serves with the default token, which the tools cannot read or find
// there: the config folder is secret to them wherever it lies.
func TestServeRootHoldingTheConfig(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	home := filepath.Join(root, ".jh")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	srv := startServeHome(t, home, root)
	if srv.token == "" {
		t.Fatal("no token in the config folder")
	}
	s := srv.connect(t, "home-root", "2025-11-25")
	s.fail("read_file", map[string]any{"path": ".jh/config/token"}, "SECRET_DENIED")
	// A copy under a plain name is found, the token file is not.
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte(srv.token[:16]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := text(s.call("search_code", map[string]any{"pattern": srv.token[:16], "outputMode": "files"}))
	if !strings.Contains(out, "notes.txt") || strings.Contains(out, "config") {
		t.Fatalf("search_code for the token:\n%s", out)
	}
	if out := text(s.call("search_code", map[string]any{"pattern": srv.token[:16], "path": ".jh/config"})); strings.Contains(out, srv.token[:16]) {
		t.Fatalf("search_code in the config folder found the token:\n%s", out)
	}
}

package test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// juju serve gives an HTTP client what juju stdio gives a stdio client:
// the same tools, instructions, results, error codes and invalid-params
// errors, with every call audited under the client's name — over the
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
			if _, err := s.callErr("read_file", map[string]any{"path": 42}); !errors.Is(err, mcp.ErrInvalidParams) {
				t.Errorf("bad arguments: want a JSON-RPC invalid params error, got %v", err)
			}
			if _, err := s.callErr("no_such_tool", map[string]any{}); err == nil {
				t.Error("an unknown tool was not a protocol error")
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

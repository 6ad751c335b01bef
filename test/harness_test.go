package test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/jujutools/juju/internal/testfs"
)

// session is one running `juju stdio` with a connected client.
type session struct {
	t      *testing.T
	c      *client.Client
	root   string
	home   string
	init   *mcp.InitializeResult
	stderr func() string
}

// workspace makes a root folder with the given files (path → content); a
// content starting with "->" makes a symlink to the rest.
func workspace(t *testing.T, files map[string]string) string {
	return testfs.Workspace(t, files)
}

// start runs `juju stdio --root root` with a private JUJU_HOME and
// initializes a client.
func start(t *testing.T, root string, args ...string) *session {
	t.Helper()
	return startHome(t, t.TempDir(), root, args...)
}

func startHome(t *testing.T, home, root string, args ...string) *session {
	t.Helper()
	return startWrapped(t, home, root, nil, args...)
}

// startWrapped is startHome with juju started by the command wrap (its
// program and arguments, juju's command line after them), such as a
// helper that runs juju inside a network namespace.
func startWrapped(t *testing.T, home, root string, wrap []string, args ...string) *session {
	t.Helper()
	// Sessions share one compilation cache, so only the first compiles.
	if _, err := os.Lstat(filepath.Join(home, "cache")); os.IsNotExist(err) {
		if err := os.Symlink(sharedCache, filepath.Join(home, "cache")); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "JUJU_HOME="+home)
	argv := append(append(append([]string(nil), wrap...), jujuBin, "stdio", "--root", root), args...)
	return startCommand(t, env, argv[0], argv[1:], home, root)
}

// startCommand starts the MCP server program with args and env (juju, or a
// program that starts juju) and initializes a client.
func startCommand(t *testing.T, env []string, program string, args []string, home, root string) *session {
	t.Helper()
	return startProtocol(t, env, program, args, home, root, mcp.LATEST_PROTOCOL_VERSION)
}

// startProtocol is startCommand with the protocol version the client asks
// for (clients of versions before 2026-07-28 are sent notifications
// without subscribing).
func startProtocol(t *testing.T, env []string, program string, args []string, home, root, version string) *session {
	t.Helper()
	c, err := client.NewStdioMCPClient(program, env, args...)
	if err != nil {
		t.Fatalf("starting juju: %v", err)
	}
	s := &session{t: t, c: c, root: root, home: home}
	s.stderr = func() string {
		r, ok := client.GetStderr(c)
		if !ok {
			return ""
		}
		b := make([]byte, 1<<16)
		n, _ := r.Read(b)
		return string(b[:n])
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcp.Implementation{Name: "juju-e2e", Version: "1"}
	s.init, err = c.Initialize(ctx, req)
	if err != nil {
		t.Fatalf("initialize: %v\nstderr:\n%s", err, s.stderr())
	}
	return s
}

// call runs a tool and fails the test on a protocol error.
func (s *session) call(tool string, args map[string]any) *mcp.CallToolResult {
	s.t.Helper()
	res, err := s.callErr(tool, args)
	if err != nil {
		s.t.Fatalf("%s: protocol error: %v", tool, err)
	}
	return res
}

func (s *session) callErr(tool string, args map[string]any) (*mcp.CallToolResult, error) {
	return s.callErrFor(60*time.Second, tool, args)
}

// callFor is call with a time of its own, for a call of thousands of
// paths on a loaded machine.
func (s *session) callFor(d time.Duration, tool string, args map[string]any) *mcp.CallToolResult {
	s.t.Helper()
	res, err := s.callErrFor(d, tool, args)
	if err != nil {
		s.t.Fatalf("%s: protocol error: %v", tool, err)
	}
	return res
}

func (s *session) callErrFor(d time.Duration, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	return s.c.CallTool(ctx, req)
}

// ok runs a tool that must succeed and returns its text.
func (s *session) ok(tool string, args map[string]any) string {
	s.t.Helper()
	res := s.call(tool, args)
	if res.IsError {
		s.t.Fatalf("%s(%v) failed: %s", tool, args, text(res))
	}
	return text(res)
}

// fail runs a tool that must fail with code and returns the message.
func (s *session) fail(tool string, args map[string]any, code string) string {
	s.t.Helper()
	res := s.call(tool, args)
	if !res.IsError {
		s.t.Fatalf("%s(%v) succeeded, want %s: %s", tool, args, code, text(res))
	}
	got := structured(s.t, res)
	if got["code"] != code {
		s.t.Fatalf("%s(%v): code %v, want %s: %s", tool, args, got["code"], code, text(res))
	}
	if !strings.HasPrefix(text(res), code+": ") {
		s.t.Fatalf("%s: error text must begin with the code: %q", tool, text(res))
	}
	msg, _ := got["message"].(string)
	if len(msg) < 10 {
		s.t.Fatalf("%s: error message too short to guide the model: %q", tool, msg)
	}
	return msg
}

// text joins a result's text contents.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// structured decodes a result's structured content into a map.
func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	var raw []byte
	switch {
	case len(res.RawStructuredContent) > 0:
		raw = res.RawStructuredContent
	case res.StructuredContent != nil:
		var err error
		raw, err = json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("result has no structured content: %s", text(res))
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("structured content is not an object: %s", raw)
	}
	return m
}

// with returns the session reporting to t (a subtest).
func (s *session) with(t *testing.T) *session {
	c := *s
	c.t = t
	return &c
}

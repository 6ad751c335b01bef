package test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// server is one running `juju serve` on a free loopback port.
type server struct {
	t     *testing.T
	cmd   *exec.Cmd
	url   string // http://127.0.0.1:PORT/mcp
	base  string // http://127.0.0.1:PORT
	host  string // 127.0.0.1:PORT
	port  string
	token string
	home  string
	root  string
	log   *lockedBuffer // everything juju wrote to stderr
}

// lockedBuffer collects a process's stderr for concurrent readers.
type lockedBuffer struct {
	mu    sync.Mutex
	b     strings.Builder
	lines chan string
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var servingRE = regexp.MustCompile(`juju: serving MCP at (http://(127\.0\.0\.1:(\d+))/mcp)`)

// startServe runs `juju serve --root root --addr 127.0.0.1:0 args…` with a
// private JUJU_HOME and waits for the line naming its address.
func startServe(t *testing.T, root string, args ...string) *server {
	t.Helper()
	return startServeHome(t, t.TempDir(), root, args...)
}

func startServeHome(t *testing.T, home, root string, args ...string) *server {
	t.Helper()
	if _, err := os.Lstat(filepath.Join(home, "cache")); os.IsNotExist(err) {
		if err := os.Symlink(sharedCache, filepath.Join(home, "cache")); err != nil {
			t.Fatal(err)
		}
	}
	argv := append([]string{"serve", "--root", root, "--addr", "127.0.0.1:0"}, args...)
	cmd := exec.Command(jujuBin, argv...)
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, cmd: cmd, home: home, root: root, log: &lockedBuffer{lines: make(chan string, 1024)}}
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			s.log.mu.Lock()
			s.log.b.WriteString(sc.Text() + "\n")
			s.log.mu.Unlock()
			select {
			case s.log.lines <- sc.Text():
			default:
			}
		}
		close(s.log.lines)
	}()
	t.Cleanup(s.stop)
	deadline := time.After(20 * time.Second)
	for s.url == "" {
		select {
		case line, ok := <-s.log.lines:
			if !ok {
				cmd.Wait()
				t.Fatalf("juju serve exited:\n%s", s.log)
			}
			if m := servingRE.FindStringSubmatch(line); m != nil {
				s.url, s.base, s.host, s.port = m[1], "http://"+m[2], m[2], m[3]
			}
		case <-deadline:
			t.Fatalf("juju serve did not say where it serves:\n%s", s.log)
		}
	}
	tok, err := os.ReadFile(filepath.Join(home, "config", "token"))
	if err != nil && !strings.Contains(strings.Join(args, " "), "--token-file") {
		t.Fatal(err)
	}
	s.token = strings.TrimSpace(string(tok))
	return s
}

// stop ends the server with SIGTERM, as a terminal's Ctrl-C would.
func (s *server) stop() {
	if s.cmd.ProcessState != nil {
		return
	}
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}

// connect opens an MCP client over streamable HTTP with the local token,
// speaking version (a legacy version keeps a session; the newest is
// stateless), named name.
func (s *server) connect(t *testing.T, name, version string, opts ...client.ClientOption) *session {
	t.Helper()
	return s.connectWith(t, name, version, map[string]string{"Authorization": "Bearer " + s.token}, opts...)
}

// connectOpts is connect with options for the transport too.
func (s *server) connectOpts(t *testing.T, name, version string, topts []transport.StreamableHTTPCOption, opts ...client.ClientOption) *session {
	t.Helper()
	return s.dial(t, name, version, map[string]string{"Authorization": "Bearer " + s.token}, topts, opts...)
}

func (s *server) connectWith(t *testing.T, name, version string, headers map[string]string, opts ...client.ClientOption) *session {
	t.Helper()
	return s.dial(t, name, version, headers, nil, opts...)
}

func (s *server) dial(t *testing.T, name, version string, headers map[string]string, topts []transport.StreamableHTTPCOption, opts ...client.ClientOption) *session {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(s.url, append([]transport.StreamableHTTPCOption{transport.WithHTTPHeaders(headers)}, topts...)...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, append([]client.ClientOption{client.WithProtocolVersion(version)}, opts...)...)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	sess := &session{t: t, c: c, root: s.root, home: s.home, stderr: s.log.String}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1"}
	if sess.init, err = c.Initialize(ctx, req); err != nil {
		t.Fatalf("initialize over HTTP: %v\nlog:\n%s", err, s.log)
	}
	return sess
}

// raw sends one HTTP request to the server's address; hdr may set Host
// (the header, not the address), and a value "" deletes a header.
func (s *server) raw(t *testing.T, method, target, body string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	if !strings.HasPrefix(target, "http") {
		target = s.base + target
	}
	req, err := http.NewRequest(method, target, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		switch {
		case k == "Host":
			req.Host = v
		case v == "":
			req.Header.Del(k)
		default:
			req.Header.Set(k, v)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := noRedirects.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res, string(b)
}

// noRedirects is an HTTP client that hands redirects back to the test.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// bearer is the Authorization header with the server's local token.
func (s *server) bearer() map[string]string {
	return map[string]string{"Authorization": "Bearer " + s.token}
}

// initSession opens a legacy session with raw HTTP and returns its id.
func (s *server) initSession(t *testing.T, hdr map[string]string) string {
	t.Helper()
	res, body := s.raw(t, "POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, hdr)
	id := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != 200 || id == "" {
		t.Fatalf("initialize: %d %s", res.StatusCode, body)
	}
	h := map[string]string{"Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-11-25"}
	for k, v := range hdr {
		h[k] = v
	}
	if res, body := s.raw(t, "POST", "/mcp", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h); res.StatusCode != 202 {
		t.Fatalf("initialized: %d %s", res.StatusCode, body)
	}
	return id
}

// writeCall is a tools/call of write_file as one JSON-RPC request; modern
// makes it a stateless request of protocol 2026-07-28.
func writeCall(path string, modern bool) string {
	meta := ""
	if modern {
		meta = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	}
	return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"` + path + `","content":"pwned\n"}` + meta + `}}`
}

// modernHeaders are the headers of a stateless request of 2026-07-28.
func modernHeaders(tool string) map[string]string {
	return map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool}
}

// merge returns the union of header maps, later ones winning.
func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// mustNotExist fails the test when a refused call left its file.
func mustNotExist(t *testing.T, root, path string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(root, path)); err == nil {
		t.Fatalf("%s exists: a refused request wrote it", path)
	}
}

// statIn stats path under root.
func statIn(root, path string) (os.FileInfo, error) { return os.Stat(filepath.Join(root, path)) }

// s256 is the PKCE S256 challenge of a verifier.
func s256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// logged reports whether juju's stderr shows text within a second (it is
// read in the background).
func (s *server) logged(text string) bool {
	for range 50 {
		if strings.Contains(s.log.String(), text) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

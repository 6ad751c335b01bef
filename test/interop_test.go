//go:build unix

package test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The official MCP TypeScript SDK's client (@modelcontextprotocol/sdk,
// pinned in test/interop/package.json), which Claude Desktop, Cursor and
// most other clients are built on, drives the real juju: client.mjs over
// StdioClientTransport against juju stdio, and over
// StreamableHTTPClientTransport with the SDK's OAuth client against juju
// serve (discovery, registration, PKCE, the consent page completed with
// the pairing code juju printed, refresh, revocation, the session's GET
// stream, resumption and DELETE). The SDK validates every tool's schemas
// and every structuredContent against the tool's outputSchema itself, error
// results included; each call must pass it. Cancellation goes through the
// SDK's AbortSignal and must stop the command. In inspect mode, over stdio
// and HTTP, approvals are asked through the SDK's elicitation handler,
// accepted and declined.
func TestSDKInterop(t *testing.T) {
	dir := filepath.Join(repoRoot, "test", "interop")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		if os.Getenv(conformanceEnv) == "require" {
			t.Fatalf("the MCP TypeScript SDK is not installed (%v): run npm ci in test/interop", err)
		}
		t.Skip("the MCP TypeScript SDK is not installed: make test installs it (npm ci in test/interop)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv(conformanceEnv) == "require" {
			t.Fatalf("node is needed to run the MCP TypeScript SDK: %v", err)
		}
		t.Skip("node is not installed")
	}
	files := map[string]string{
		"a.txt": "alpha\n", "main.go": "package main\n\nfunc main() {}\n",
		"empty.txt": "", "empty.go": "", "dot.png": string(onePixelPNG),
	}
	root := func(t *testing.T) string {
		r := workspace(t, files)
		if err := os.Mkdir(filepath.Join(r, "empty"), 0o755); err != nil {
			t.Fatal(err)
		}
		return r
	}
	t.Run("stdio", func(t *testing.T) {
		t.Parallel()
		home := t.TempDir()
		if err := os.Symlink(sharedCache, filepath.Join(home, "cache")); err != nil {
			t.Fatal(err)
		}
		runInterop(t, dir, home, nil, "stdio", jujuBin, root(t), workspace(t, map[string]string{"a.txt": "a\n"}))
	})
	t.Run("http", func(t *testing.T) {
		t.Parallel()
		srv := startServe(t, root(t), "--mode", "trusted")
		inspect := startServe(t, workspace(t, map[string]string{"a.txt": "a\n"}), "--mode", "inspect")
		runInterop(t, dir, srv.home, srv, "http", srv.url, jujuBin, "clients", inspect.url, inspect.token)
	})
}

// onePixelPNG is a 1×1 PNG, for read_image's image content.
var onePixelPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
	"\x00\x00\x00\rIDATx\xdac\xfc\xcf\xc0P\x0f\x00\x04\x85\x01\x80\x84\xa9\x8c!\x00\x00\x00\x00IEND\xaeB`\x82")

// runInterop runs client.mjs with args, fails the test for each of its
// FAIL lines, and answers its PAIR n with the n-th pairing code srv printed.
func runInterop(t *testing.T, dir, home string, srv *server, args ...string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{"client.mjs"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	closeIn := func() { once.Do(func() { stdin.Close() }) }
	defer closeIn()
	passed, done := 0, false
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "PASS "):
			passed++
		case strings.HasPrefix(line, "FAIL "):
			t.Errorf("%s", line)
		case strings.HasPrefix(line, "PAIR "):
			n, _ := strconv.Atoi(strings.TrimPrefix(line, "PAIR "))
			if srv == nil || n < 1 {
				t.Fatalf("client.mjs asked for a pairing code: %s", line)
			}
			code, _ := srv.pairingCode(t, n)
			io.WriteString(stdin, code+"\n")
		case line == "DONE":
			done = true
		default:
			t.Logf("%s", line)
		}
	}
	closeIn()
	err = cmd.Wait()
	if !done {
		t.Fatalf("client.mjs did not finish (%v):\n%s", err, stderr.String())
	}
	if passed < 40 {
		t.Errorf("client.mjs passed only %d checks", passed)
	}
	if err != nil && !t.Failed() {
		t.Errorf("client.mjs: %v\n%s", err, stderr.String())
	}
	t.Logf("%s: %d checks passed%s", args[0], passed, func() string {
		if srv == nil || !t.Failed() {
			return ""
		}
		return fmt.Sprintf("; juju serve's log:\n%s", srv.log)
	}())
}

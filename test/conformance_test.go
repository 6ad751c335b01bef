package test

import (
	"context"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// conformanceEnv, set to "require", makes a missing conformance suite a
// failure instead of a skip (`make test` sets it after npm ci).
const conformanceEnv = "JUJU_CONFORMANCE"

// The official MCP conformance suite (@modelcontextprotocol/conformance,
// pinned in test/conformance/package.json), server scenarios, against
// juju serve. The suite cannot send headers, so a loopback proxy adds the
// bearer token; it forwards Host and Origin untouched, and juju accepts
// the proxy's own address as its --public-url, so the suite's DNS-rebinding
// scenario meets juju's own checks. Scenarios that need the reference
// server's fixture tools, prompts or resources are listed, with the
// reason, in test/conformance/expected-failures.yaml.
func TestServeConformance(t *testing.T) {
	dir := filepath.Join(repoRoot, "test", "conformance")
	bin := filepath.Join(dir, "node_modules", ".bin", "conformance")
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv(conformanceEnv) == "require" {
			t.Fatalf("the conformance suite is not installed (%v): run npm ci in test/conformance", err)
		}
		t.Skip("the conformance suite is not installed: make test installs it (npm ci in test/conformance)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is needed to run the conformance suite: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	front := "http://" + ln.Addr().String()
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted", "--public-url", front)
	target, _ := url.Parse(srv.base)
	proxy := &httputil.ReverseProxy{
		Director: func(r *http.Request) {
			r.URL.Scheme, r.URL.Host = target.Scheme, target.Host
			if r.Header.Get("Authorization") == "" {
				r.Header.Set("Authorization", "Bearer "+srv.token)
			}
		},
		FlushInterval: -1,
	}
	hs := &http.Server{Handler: proxy}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	out := os.Getenv("JUJU_CONFORMANCE_OUT") // keep the results there
	if out == "" {
		out = t.TempDir()
	}
	cmd := exec.CommandContext(ctx, bin, "server", "--url", front+"/mcp",
		"--expected-failures", filepath.Join(dir, "expected-failures.yaml"), "-o", out)
	cmd.Dir = dir
	res, err := cmd.CombinedOutput()
	t.Logf("conformance suite:\n%s", res)
	if err != nil {
		t.Fatalf("the conformance suite failed: %v (results in %s)", err, out)
	}
}

//go:build unix

package test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// A semantic call its client cancels while gopls cannot answer (stopped)
// sends gopls $/cancelRequest for the request juju gave up on: gopls,
// resumed, reads it (its own RPC trace says so) instead of computing an
// answer nobody reads, and the next call is answered.
func TestLSPCancelledCallCancelsTheRequest(t *testing.T) {
	root := workspace(t, makeUse(nil))
	home := lspHome(t)
	// -logfile auto: a trace per gopls process (gopls-PID.log in its
	// temporary folder), so a server started again cannot truncate the
	// trace of the one the test stops.
	lspAdd(t, home, "gopls", "--command", goplsCommand(t)+" -rpc.trace -logfile auto", "--languages", "go", "--root-markers", "go.work,go.mod")
	s := startHome(t, home, root, "--mode", "trusted")
	juju := jujuPID(t, root)
	def := map[string]any{"path": "b.go", "line": 6, "column": 11}
	sameList(t, "definition", locs(t, s.call("go_to_definition", def)), []string{"a/a.go:3:6"})
	g := childrenOf(t, juju, "gopls")
	if len(g) != 1 {
		t.Fatalf("want one gopls, got %+v", g)
	}
	if err := syscall.Kill(g[0].pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(g[0].pid, syscall.SIGCONT) })
	trace := filepath.Join(os.TempDir(), fmt.Sprintf("gopls-%d.log", g[0].pid))
	t.Cleanup(func() { os.Remove(trace) })

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = "find_references"
	req.Params.Arguments = map[string]any{"path": "a/a.go", "line": 3, "column": 6}
	if _, err := s.c.CallTool(ctx, req); err == nil {
		t.Fatal("a call cancelled while gopls was stopped was answered")
	}
	if err := syscall.Kill(g[0].pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	// gopls's trace names each message from its client's side.
	refs := regexp.MustCompile(`Sending request 'textDocument/references - \((\d+)\)'`)
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(trace)
		if m := refs.FindSubmatch(b); m != nil && strings.Contains(string(b), "Sending notification '$/cancelRequest'.\nParams: {\"id\":"+string(m[1])+"}") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("gopls never read a $/cancelRequest of the references request; its trace:\n%s", b)
		}
		time.Sleep(100 * time.Millisecond)
	}
	sameList(t, "definition after the cancel", locs(t, s.call("go_to_definition", def)), []string{"a/a.go:3:6"})
}

//go:build unix

package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/lspconfig"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// Each folder holding a root marker gets a server of its own; past
// MaxServers the least recently used is shut down, so a workspace of many
// modules cannot start a server per module (60 gopls took 3.5 GB).
func TestServersAreBounded(t *testing.T) {
	root := t.TempDir()
	const modules = 5
	for i := range modules {
		dir := filepath.Join(root, fmt.Sprintf("m%d", i))
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\nvar x = 1\n"), 0o644)
	}
	pol, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pol.Close() })
	exe, _ := os.Executable()
	m := New(pol, Options{MaxServers: 2, Servers: []lspconfig.Server{{Name: "claims", Command: []string{exe, claimsFakeArg, "hidden", filepath.Join(t.TempDir(), "out")},
		Languages: []string{"go"}, RootMarkers: []string{"go.mod"}}}})
	t.Cleanup(func() { m.Close(context.Background()) })

	var started []*client
	for i := range modules {
		if _, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDefinition, Path: fmt.Sprintf("m%d/a.go", i), Line: 2, Column: 5}); e != nil {
			t.Fatalf("module %d: %v", i, e)
		}
		if n := len(m.running()); n > 2 {
			t.Fatalf("%d servers running after module %d, want at most 2", n, i)
		}
		for _, c := range m.running() {
			if c.root == filepath.Join(root, fmt.Sprintf("m%d", i)) {
				started = append(started, c)
			}
		}
	}
	if len(started) != modules {
		t.Fatalf("%d servers seen, want %d", len(started), modules)
	}
	// The ones let go have exited.
	deadline := time.Now().Add(10 * time.Second)
	for _, c := range started[:modules-2] {
		for !c.isDead() && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if !c.isDead() {
			t.Errorf("the server of %s is still running after it was let go", c.root)
		}
	}
	// The least recently used goes: m3 used again, then m0 started anew,
	// lets m4 go.
	if _, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDefinition, Path: "m3/a.go", Line: 2, Column: 5}); e != nil {
		t.Fatal(e)
	}
	if _, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDefinition, Path: "m0/a.go", Line: 2, Column: 5}); e != nil {
		t.Fatal(e)
	}
	var roots []string
	for _, c := range m.running() {
		roots = append(roots, filepath.Base(c.root))
	}
	if len(roots) != 2 || roots[0] != "m0" || roots[1] != "m3" {
		t.Errorf("running %v, want [m0 m3]", roots)
	}
}

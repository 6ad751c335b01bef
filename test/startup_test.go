//go:build unix

package test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/jujutools/juju/sandbox"
)

// juju answers the handshake and the first tools/list without running its
// sandbox helper: asking the helper for its protocol starts a process,
// which on a small machine is most of the start's budget. It is asked when
// a command first needs the sandbox.
func TestStartRunsNoSandboxHelper(t *testing.T) {
	bin := t.TempDir()
	exe := filepath.Join(bin, "juju")
	b, err := os.ReadFile(jujuBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	// A helper that notes each run in ran, then answers as the real one.
	ran := filepath.Join(t.TempDir(), "ran")
	helper := filepath.Join(bin, sandbox.HelperProgram)
	script := "#!/bin/sh\necho \"$@\" >> " + ran + "\necho " + strconv.Itoa(sandbox.HelperProtocol) + "\n"
	if err := os.WriteFile(helper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(helper, 0o755) // past the umask
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	home := t.TempDir()
	if err := os.Symlink(sharedCache, filepath.Join(home, "cache")); err != nil {
		t.Fatal(err)
	}
	s := startCommand(t, append(os.Environ(), "JUJU_HOME="+home), exe, []string{"stdio", "--root", root}, home, root)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := s.c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		t.Fatal(err)
	}
	s.ok("read_file", map[string]any{"path": "a.txt"})
	if b, err := os.ReadFile(ran); err == nil {
		t.Fatalf("juju ran its sandbox helper before any command: %q", b)
	}
	// The helper is one juju would use, and ran notes its runs.
	if got := sandbox.StandaloneHelper(exe); got != helper {
		t.Fatalf("StandaloneHelper = %q, want %q", got, helper)
	}
	if _, err := os.ReadFile(ran); err != nil {
		t.Fatalf("the helper's runs are not noted: %v", err)
	}
}

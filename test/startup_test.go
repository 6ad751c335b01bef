//go:build unix

package test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
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

// juju stdio collects no garbage before it answers initialize: the heap of
// its first milliseconds is a few megabytes, mostly garbage, and a
// collection then made the answer wait for its stops of the world
// (cmd/juju's startGCPercent). gctrace says when each collection started,
// from the runtime's start.
func TestStartCollectsNoGarbageBeforeInitialize(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	home := t.TempDir()
	if err := os.Symlink(sharedCache, filepath.Join(home, "cache")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(jujuBin, "stdio", "--root", root)
	cmd.Env = []string{"JUJU_HOME=" + home, "GODEBUG=gctrace=1"} // GOGC unset, as juju's own setting yields to it
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GODEBUG=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	spawned := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	answer, err := bufio.NewReader(out).ReadString('\n')
	answered := time.Since(spawned)
	if err != nil || !strings.Contains(answer, `"id":1,"result"`) {
		t.Fatalf("initialize: %q %v\nstderr:\n%s", answer, err, stderr.String())
	}
	in.Close()
	cmd.Wait()
	if answered > 800*time.Millisecond {
		// The warm-up starts a second after juju does, with or
		// without a handshake, and collects.
		t.Skipf("initialize took %v: too close to the warm-up to tell", answered)
	}
	for _, m := range regexp.MustCompile(`(?m)^gc \d+ @([0-9.]+)s`).FindAllStringSubmatch(stderr.String(), -1) {
		at, _ := strconv.ParseFloat(m[1], 64)
		if time.Duration(at*float64(time.Second)) < answered {
			t.Errorf("a collection started %ss after the runtime did, before initialize was answered (%v after spawning): %s", m[1], answered, m[0])
		}
	}
}

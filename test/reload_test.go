package test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// toolNames lists the session's tools.
func (s *session) toolNames() []string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := s.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		s.t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, t := range res.Tools {
		names = append(names, t.Name)
	}
	return names
}

// toolSchema is the input schema tools/list gives the tool name, as JSON.
func (s *session) toolSchema(name string) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := s.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		s.t.Fatalf("tools/list: %v", err)
	}
	for _, t := range res.Tools {
		if t.Name == name {
			b, err := json.Marshal(t)
			if err != nil {
				s.t.Fatal(err)
			}
			return string(b)
		}
	}
	s.t.Fatalf("tools/list lacks %s", name)
	return ""
}

// listChanged counts the notifications/tools/list_changed a session got.
func listChanged(s *session) *atomic.Int32 {
	s.t.Helper()
	// The stdio client hands notifications on only once started (starting
	// its running transport again is allowed).
	if err := s.c.Start(context.Background()); err != nil {
		s.t.Fatal(err)
	}
	var n atomic.Int32
	s.c.OnNotification(func(m mcp.JSONRPCNotification) {
		if m.Method == string(mcp.MethodNotificationToolsListChanged) {
			n.Add(1)
		}
	})
	return &n
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// A running server picks up an install, an update and a removal at its
// next request, without a restart: the new tool is served, the updated
// one runs its new code and takes the arguments of its new schema, the
// removed one is gone, and each time the
// client is told the tool list changed.
func TestInstallUpdateRemoveWhileServing(t *testing.T) {
	home := newHome(t)
	// A client of 2025-11-25, as most are: it gets notifications without
	// subscribing to them.
	s := startProtocol(t, append(os.Environ(), "JUJU_HOME="+home), jujuBin,
		[]string{"stdio", "--root", workspace(t, nil), "--mode", "trusted"}, home, "", "2025-11-25")
	if !s.init.Capabilities.Tools.ListChanged {
		t.Fatal("initialize does not declare tools.listChanged")
	}
	changed := listChanged(s)
	if slices.Contains(s.toolNames(), "test_raw_echo") {
		t.Fatal("the plugin is served before it is installed")
	}

	// Install: the next call serves the new tool.
	dir := authorFolder(t)
	cliOK(t, home, "plugins", "build", "--wasm", buildRaw(t, ""), dir)
	cliOK(t, home, "plugins", "install", dir, "--yes")
	if got := s.ok("test_raw_echo", map[string]any{"text": "one"}); got != "raw: one" {
		t.Fatalf("after install: %q", got)
	}
	waitFor(t, "tools/list_changed after the install", func() bool { return changed.Load() >= 1 })
	if !slices.Contains(s.toolNames(), "test_raw_echo") {
		t.Fatal("tools/list lacks the installed tool")
	}
	if msg := s.fail("test_raw_echo", map[string]any{"text": "one", "times": 2}, "INVALID_ARGUMENT"); !strings.Contains(msg, `unknown argument "times"; test_raw_echo takes only: text`) {
		t.Fatalf("an argument the installed version does not take: %s", msg)
	}

	// Update: tools/list, the first request after it, lists the tool's
	// new schema (an answer encoded once per catalog is encoded again), and
	// the same tool runs the new code.
	cliOK(t, home, "plugins", "build", "--wasm", buildRaw(t, "rawv2"), dir)
	cliOK(t, home, "plugins", "install", dir, "--yes")
	if schema := s.toolSchema("test_raw_echo"); !strings.Contains(schema, `"times"`) {
		t.Fatalf("tools/list after the update: test_raw_echo takes %s", schema)
	}
	if got := s.ok("test_raw_echo", map[string]any{"text": "two"}); got != "raw v2: two" {
		t.Fatalf("after the update: %q", got)
	}
	waitFor(t, "tools/list_changed after the update", func() bool { return changed.Load() >= 2 })
	// Its arguments are checked against the new schema: the argument it
	// added is taken, and held to its bounds.
	if got := s.ok("test_raw_echo", map[string]any{"text": "two", "times": 2}); got != "raw v2: two two" {
		t.Fatalf("the updated tool's new argument: %q", got)
	}
	if msg := s.fail("test_raw_echo", map[string]any{"text": "two", "times": 0}, "INVALID_ARGUMENT"); !strings.Contains(msg, `the argument "times" must be at least 1 (got 0)`) {
		t.Fatalf("the updated tool's new argument out of bounds: %s", msg)
	}

	// Remove: the tool is gone at the next request, and the client hears
	// the list changed before that request's answer: a call of the
	// removed tool, answered "not found" first, left the client to wonder
	// why a listed tool was missing. (The client hands on each line as it
	// reads it, so the count, read when the answer is back, is the
	// notifications written before the answer.)
	// Without the wait the answer came first about half the time: four
	// removals.
	for i := range 4 {
		if i > 0 {
			cliOK(t, home, "plugins", "install", dir, "--yes")
			s.ok("test_raw_echo", map[string]any{"text": "again"})
		}
		before := changed.Load()
		cliOK(t, home, "plugins", "remove", "test-raw")
		if _, err := s.callErr("test_raw_echo", map[string]any{"text": "three"}); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Fatalf("a removed tool answered: %v", err)
		}
		if changed.Load() == before {
			t.Errorf("removal %d: the answer to the first call after it came before tools/list_changed", i+1)
		}
	}
	if slices.Contains(s.toolNames(), "test_raw_echo") {
		t.Fatal("tools/list still has the removed tool")
	}
	// Core tools never stopped.
	s.ok("list_directory", map[string]any{"path": "."})
}

package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// auditEntry is one call in juju audit --json.
type auditEntry struct {
	Time       time.Time `json:"time"`
	CallID     string    `json:"callId"`
	Client     string    `json:"client"`
	Plugin     string    `json:"plugin"`
	Tool       string    `json:"tool"`
	Tier       string    `json:"tier"`
	Args       string    `json:"args"`
	Outcome    string    `json:"outcome"`
	DurationMs float64   `json:"durationMs"`
	Approval   *struct {
		Via, Decision, ID string
	} `json:"approval"`
}

func auditJSON(t *testing.T, home, root string, args ...string) []auditEntry {
	t.Helper()
	out := juju(t, home, root, append([]string{"audit", "--json"}, args...)...)
	var got []auditEntry
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("juju audit --json: %v\n%s", err, out)
	}
	return got
}

// Every call lands in the audit log — run, refused, or held — with its
// outcome and duration; a secret's path is recorded, never its content,
// and a long argument is cut.
func TestAudit(t *testing.T) {
	secret := "API_KEY=sk-audit-canary-0123456789"
	root := workspace(t, map[string]string{"a.txt": "hello\n", ".env": secret + "\n"})
	home := gateHome(t, 200*time.Millisecond)
	s := startGate(t, home, root, "edit", "audit-e2e", nil)

	s.ok("read_file", map[string]any{"path": "a.txt"})
	s.fail("read_file", map[string]any{"path": ".env"}, "SECRET_DENIED")
	s.fail("read_file", map[string]any{"path": "missing.txt"}, "NOT_FOUND")
	long := strings.Repeat("z", 3000)
	s.ok("test_gated_edit", map[string]any{"text": long})
	s.fail("test_gated_exec", map[string]any{"text": "held"}, "APPROVAL_PENDING")

	// From another folder, naming the workspace with --root.
	got := auditJSON(t, home, t.TempDir(), "--root", root)
	want := []struct{ tool, outcome, decision string }{
		{"read_file", "ok", ""},
		{"read_file", "SECRET_DENIED", ""},
		{"read_file", "NOT_FOUND", ""},
		{"test_gated_edit", "ok", ""},
		{"test_gated_exec", "APPROVAL_PENDING", "pending"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d audit records, want %d: %+v", len(got), len(want), got)
	}
	ids := map[string]bool{}
	for i, w := range want {
		g := got[i]
		if g.Tool != w.tool || g.Outcome != w.outcome || g.Client != "audit-e2e" || g.CallID == "" || g.DurationMs <= 0 {
			t.Errorf("record %d: %+v, want %s %s", i, g, w.tool, w.outcome)
		}
		if ids[g.CallID] {
			t.Errorf("call id %s repeated", g.CallID)
		}
		ids[g.CallID] = true
		switch {
		case w.decision == "" && g.Approval != nil:
			t.Errorf("record %d: approval %+v, want none", i, g.Approval)
		case w.decision != "" && (g.Approval == nil || g.Approval.Decision != w.decision || g.Approval.Via != "cli" || g.Approval.ID == ""):
			t.Errorf("record %d: approval %+v, want %s", i, g.Approval, w.decision)
		}
	}
	if got[1].Args != `{path: ".env"}` {
		t.Errorf("secret read recorded as %q", got[1].Args)
	}
	if len(got[3].Args) > 200 || !strings.Contains(got[3].Args, "(3000 bytes)") {
		t.Errorf("long argument recorded as %q", got[3].Args)
	}
	// The secret never reaches the state folder.
	filepath.Walk(filepath.Join(home, "state"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), "sk-audit-canary") {
				t.Errorf("%s holds the secret", p)
			}
		}
		return nil
	})

	// --limit and --since.
	if last := auditJSON(t, home, root, "--limit", "2"); len(last) != 2 || last[1].Tool != "test_gated_exec" {
		t.Errorf("--limit 2: %+v", last)
	}
	if none := auditJSON(t, home, root, "--since", time.Now().Add(time.Hour).UTC().Format(time.RFC3339)); len(none) != 0 {
		t.Errorf("--since the future: %+v", none)
	}
	if recent := auditJSON(t, home, root, "--since", "1h"); len(recent) != 5 {
		t.Errorf("--since 1h: %d records", len(recent))
	}
	// The table, run in the workspace itself.
	out := juju(t, home, root, "audit")
	for _, w := range []string{"SECRET_DENIED", "APPROVAL_PENDING", "pending (cli ", "audit-e2e", "test_gated_edit"} {
		if !strings.Contains(out, w) {
			t.Errorf("juju audit does not show %q:\n%s", w, out)
		}
	}
	if out, err := jujuErr(home, root, "audit", "--since", "yesterday-ish"); err == nil || !strings.Contains(out, "--since") {
		t.Errorf("a bad --since: %v %s", err, out)
	}
}

// core-exec runs the core module, yet it stays a plugin of its own: each
// tool is served, and audited, as the plugin whose manifest lists it, and
// only core-exec holds the rights to run programs and reach the network.
func TestCoreExecIsAPluginOfItsOwn(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	home := t.TempDir()
	s := startGate(t, home, root, "trusted", "plugins-e2e", nil)
	s.ok("read_file", map[string]any{"path": "a.txt"})
	if text := s.ok("run_command", map[string]any{"command": "echo from-core-exec"}); !strings.Contains(text, "from-core-exec") {
		t.Fatalf("run_command: %s", text)
	}
	s.ok("list_jobs", map[string]any{})
	got := auditJSON(t, home, root)
	want := map[string]string{"read_file": "core", "run_command": "core-exec", "list_jobs": "core-exec"}
	if len(got) != len(want) {
		t.Fatalf("%d audit records: %+v", len(got), got)
	}
	for _, g := range got {
		if g.Plugin != want[g.Tool] || g.Outcome != "ok" {
			t.Errorf("%s ran as %q (%s), want %q", g.Tool, g.Plugin, g.Outcome, want[g.Tool])
		}
	}
	var list []struct {
		Name    string   `json:"name"`
		Granted []string `json:"granted"`
		Tools   int      `json:"tools"`
	}
	if err := json.Unmarshal([]byte(juju(t, home, root, "plugins", "list", "--json")), &list); err != nil {
		t.Fatal(err)
	}
	for _, p := range list {
		runs := slices.Contains(p.Granted, "exec") || slices.Contains(p.Granted, "exec.shell") || slices.Contains(p.Granted, "net.fetch")
		if runs != (p.Name == "core-exec") {
			t.Errorf("%s is granted %v", p.Name, p.Granted)
		}
		if p.Name == "core-exec" && p.Tools != 13 {
			t.Errorf("core-exec serves %d tools", p.Tools)
		}
	}
}

// TestAuditKeepsCallsBehindHugeNames: a client naming itself, or a tool it
// calls, with megabytes is recorded with the name cut, and the calls after
// it stay in juju audit (a line past 1 MiB ended the reading).
func TestAuditKeepsCallsBehindHugeNames(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	home := gateHome(t, 200*time.Millisecond)
	s := startGate(t, home, root, "trusted", strings.Repeat("n", 2<<20), nil)
	s.ok("read_file", map[string]any{"path": "a.txt"})
	if _, err := s.callErr(strings.Repeat("t", 2<<20), map[string]any{}); err == nil {
		t.Fatal("an unknown tool was served")
	}
	s.ok("write_file", map[string]any{"path": "b.txt", "content": "after\n"})

	got := auditJSON(t, home, root)
	var tools []string
	for _, e := range got {
		tools = append(tools, e.Tool[:min(len(e.Tool), 10)])
		// SECURITY.md's bounds: a client's name 128 bytes, a tool's 256,
		// each with the "…" of its cut.
		if len(e.Client) > 128+len("…") || len(e.Tool) > 256+len("…") {
			t.Errorf("a record keeps a client name of %d bytes and a tool name of %d", len(e.Client), len(e.Tool))
		}
	}
	if want := "read_file tttttttttt write_file"; strings.Join(tools, " ") != want {
		t.Errorf("juju audit shows %q, want %q", strings.Join(tools, " "), want)
	}
}

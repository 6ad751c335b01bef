package test

import (
	"strings"
	"testing"
)

// Calls refused before any plugin runs — arguments that do not fit the
// tool's schema, a tool juju does not have — are in juju audit too.
func TestAuditRecordsRefusedCalls(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "x\n"})
	home := t.TempDir()
	s := startHome(t, home, root)
	s.ok("read_file", map[string]any{"path": "a.txt"})
	res, err := s.callErr("read_file", map[string]any{"path": 42})
	if err == nil && !res.IsError {
		t.Fatalf("read_file with a number for path succeeded: %s", text(res))
	}
	if _, err := s.callErr("no_such_tool", map[string]any{"x": 1}); err == nil {
		t.Fatal("an unknown tool answered")
	}
	got := auditJSON(t, home, root)
	if len(got) != 3 {
		t.Fatalf("%d audit records, want 3: %+v", len(got), got)
	}
	if g := got[1]; g.Tool != "read_file" || g.Plugin != "core" || g.Tier != "R" || g.Outcome != "INVALID_ARGUMENT" || !strings.Contains(g.Args, "42") || g.Client != "juju-e2e" {
		t.Errorf("the refused arguments: %+v", g)
	}
	if g := got[2]; g.Tool != "no_such_tool" || g.Outcome != "NOT_FOUND" || g.CallID == "" {
		t.Errorf("the unknown tool: %+v", g)
	}
	// The text form shows them as well.
	if out := juju(t, home, root, "audit"); !strings.Contains(out, "no_such_tool") || !strings.Contains(out, "INVALID_ARGUMENT") {
		t.Errorf("juju audit:\n%s", out)
	}
}

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

// A tool name is the client's to choose: juju audit shows an unknown one
// escaped, so terminal controls, carriage returns, newlines and tabs in it
// can neither wipe nor forge a row of the owner's terminal.
func TestAuditShowsUnknownToolNamesEscaped(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "x\n"})
	home := t.TempDir()
	s := startHome(t, home, root)
	forged := "\x1b[1A\x1b[2K\rread_file\tok\t0.4\n2026-12-06 01:50:00\t0hotaaaaaaaaaaa\tclaude-code\tlist_directory"
	if _, err := s.callErr(forged, map[string]any{}); err == nil {
		t.Fatal("an unknown tool answered")
	}
	out := juju(t, home, root, "audit")
	if strings.ContainsAny(out, "\x1b\r") || strings.Count(out, "\n") != 2 {
		t.Fatalf("juju audit printed the name raw:\n%q", out)
	}
	if !strings.Contains(out, `\x1b[1A\x1b[2K\rread_file\tok\t0.4\n2026-12-06`) {
		t.Errorf("juju audit does not show the name escaped:\n%s", out)
	}
}

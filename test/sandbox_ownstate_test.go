package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// juju's own folders outside the roots are empty to a confined command:
// the sandbox confines writes, not reads, and they hold the HTTP front's
// token and its OAuth clients' (a command reaching juju serve would act
// as the owner or another client with them), the journal, the audit log,
// and every job's output, another principal's included. JUJU_HOME lies
// outside /tmp here, which the sandbox makes private anyway.
func TestSandboxFindsJujusOwnFoldersEmpty(t *testing.T) {
	needSandbox(t)
	home, err := os.MkdirTemp("/var/tmp", "juju-e2e-home-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	if err := os.MkdirAll(filepath.Join(home, "config"), 0o700); err != nil {
		t.Fatal(err)
	}
	token := filepath.Join(home, "config", "token")
	if err := os.WriteFile(token, []byte("TOKEN-OF-THE-OWNER\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	s := startHome(t, home, root, "--mode", "trusted", "--sandbox", "require")
	s.ok("write_file", map[string]any{"path": "b.txt", "content": "SECRET-CONTENT-OF-B\n"})
	first := structured(t, s.call("run_command", map[string]any{"command": "echo FIRST-JOB-OUTPUT; readlink /proc/self/fd/1"}))
	log, _ := first["stdout"].(string)
	log = strings.TrimSpace(strings.TrimPrefix(log, "FIRST-JOB-OUTPUT\n"))
	if !strings.HasPrefix(log, home) {
		t.Fatalf("the job's log %q is not under JUJU_HOME %s", log, home)
	}
	got := runIn(t, s, "cat "+token+" "+log+" 2>&1; find "+home+" -type f 2>&1 | head; grep -r SECRET-CONTENT-OF-B "+home+" 2>&1 | head -3; echo end")
	for _, leak := range []string{"TOKEN-OF-THE-OWNER", "FIRST-JOB-OUTPUT", "SECRET-CONTENT-OF-B", "audit", "journal"} {
		if strings.Contains(got, leak) {
			t.Errorf("a confined command read %q in juju's own folders:\n%s", leak, got)
		}
	}
	if !strings.HasSuffix(got, "end\n") {
		t.Errorf("the command did not run through: %q", got)
	}
}

package test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// juju runs the juju binary with JUJU_HOME=home and returns its exit
// code, stdout and stderr.
func jujuCLI(t *testing.T, home string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(jujuBin, args...)
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	var out, errw strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errw
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errw.String()
}

// The owner undoes a change with juju rollback in another terminal while
// the server that made it keeps running; the server sees the rollback.
func TestRollbackCLIWhileServing(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "one\n"})
	home := t.TempDir()
	s := startHome(t, home, root, "--mode", "trusted")
	id := changeID(t, s, "edit_file", map[string]any{"path": "a.txt", "oldString": "one", "newString": "two"})

	code, out, errs := jujuCLI(t, home, "rollback", "--root", root, "--json")
	var list []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 || list[0]["id"] != id || list[0]["client"] != "juju-e2e" {
		t.Fatalf("list: %d %q %q", code, out, errs)
	}
	code, out, errs = jujuCLI(t, home, "rollback", "--root", root, id)
	if code != 0 || !strings.Contains(out, id) {
		t.Fatalf("rollback: %d %q %q", code, out, errs)
	}
	if disk(t, root, "a.txt") != "one\n" {
		t.Fatal("not rolled back")
	}
	// The server's view is stale (FILE_CHANGED) until it reads the file
	// again; then it goes on writing, and its history shows the CLI's
	// rollback.
	s.fail("edit_file", map[string]any{"path": "a.txt", "oldString": "one", "newString": "three"}, "FILE_CHANGED")
	s.ok("read_file", map[string]any{"path": "a.txt"})
	s.ok("edit_file", map[string]any{"path": "a.txt", "oldString": "one", "newString": "three"})
	h := structured(t, s.call("change_history", map[string]any{}))
	ch := h["changes"].([]any)
	if len(ch) != 3 || ch[1].(map[string]any)["client"] != "juju rollback" || ch[2].(map[string]any)["rolledBackBy"] == nil {
		t.Fatalf("history: %v", ch)
	}
	// A rollback over the later edit is refused.
	code, _, errs = jujuCLI(t, home, "rollback", "--root", root, ch[1].(map[string]any)["id"].(string))
	if code != 1 || !strings.Contains(errs, "--force") {
		t.Fatalf("conflict: %d %q", code, errs)
	}
}

// Two servers on one workspace share its journal: their writes interleave
// and each sees the other's changes.
func TestTwoServersShareTheJournal(t *testing.T) {
	root := workspace(t, map[string]string{})
	home := t.TempDir()
	s1 := startHome(t, home, root, "--mode", "trusted")
	s2 := startHome(t, home, root, "--mode", "trusted")
	const each = 10
	var wg sync.WaitGroup
	for n, s := range []*session{s1, s2} {
		wg.Go(func() {
			for i := range each {
				res := s.call("write_file", map[string]any{"path": filepath.Join("d", string(rune('a'+n)), string(rune('a'+i))), "content": "x"})
				if res.IsError {
					t.Error(text(res))
				}
			}
		})
	}
	wg.Wait()
	h := structured(t, s1.call("change_history", map[string]any{"limit": 100}))
	if ch := h["changes"].([]any); len(ch) != 2*each {
		t.Fatalf("%d changes recorded, want %d", len(ch), 2*each)
	}
	noTempFiles(t, root)
}

// A third-party plugin granted fs.write gets journaled, reversible writes;
// without the grant its writes are CAPABILITY_DENIED.
func TestThirdPartyWrites(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "old\n"})
	home := t.TempDir()
	installForTest(t, home, "plugins/testplugins/writer", []string{"fs.write"})
	s := startHome(t, home, root, "--mode", "trusted")
	s.ok("test_write", map[string]any{"path": "a.txt", "content": "new\n"})
	if disk(t, root, "a.txt") != "new\n" {
		t.Fatal("not written")
	}
	s.fail("test_write", map[string]any{"path": ".git/hooks/pre-push", "content": "x"}, "PATH_DENIED")
	h := structured(t, s.call("change_history", map[string]any{}))
	c := h["changes"].([]any)[0].(map[string]any)
	if c["plugin"] != "test-writer" || c["tool"] != "test_write" {
		t.Fatalf("recorded as %v", c)
	}
	s.ok("rollback_changes", map[string]any{"changeId": c["id"]})
	if disk(t, root, "a.txt") != "old\n" {
		t.Fatal("not rolled back")
	}

	home2 := t.TempDir()
	installForTest(t, home2, "plugins/testplugins/writer", nil)
	s2 := startHome(t, home2, root, "--mode", "trusted")
	s2.fail("test_write", map[string]any{"path": "a.txt", "content": "x"}, "CAPABILITY_DENIED")
	if disk(t, root, "a.txt") != "old\n" {
		t.Fatal("written without the grant")
	}
}

// juju audit shows, under each call, the journaled changes it made, and
// marks one the owner rolled back.
func TestAuditShowsChanges(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "one\n"})
	home := t.TempDir()
	s := startHome(t, home, root, "--mode", "trusted")
	s.ok("read_file", map[string]any{"path": "a.txt"})
	id := changeID(t, s, "edit_file", map[string]any{"path": "a.txt", "oldString": "one", "newString": "two"})
	if code, out, errs := jujuCLI(t, home, "rollback", "--root", root, id); code != 0 {
		t.Fatalf("rollback: %d %q %q", code, out, errs)
	}

	code, out, errs := jujuCLI(t, home, "audit", "--root", root, "--json")
	if code != 0 {
		t.Fatalf("audit: %d %q", code, errs)
	}
	var got []struct {
		Tool    string `json:"tool"`
		Changes []struct {
			ID         string   `json:"id"`
			Paths      []string `json:"paths"`
			RolledBack bool     `json:"rolledBack"`
		} `json:"changes"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got) != 2 {
		t.Fatalf("audit --json: %v\n%s", err, out)
	}
	if got[0].Tool != "read_file" || len(got[0].Changes) != 0 {
		t.Errorf("a read shows changes: %+v", got[0])
	}
	c := got[1].Changes
	if got[1].Tool != "edit_file" || len(c) != 1 || c[0].ID != id || len(c[0].Paths) != 1 || c[0].Paths[0] != "a.txt" || !c[0].RolledBack {
		t.Errorf("the edit's change is not shown as made and rolled back: %+v", got[1])
	}
	code, out, _ = jujuCLI(t, home, "audit", "--root", root)
	if code != 0 || !strings.Contains(out, "change "+id+" (rolled back)") {
		t.Errorf("audit table does not show the change:\n%s", out)
	}
}

package test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// The journal stays within its [journal] limits: a server prunes the
// oldest changes once a change takes it past the size limit, a rollback of
// a pruned change says it was pruned, `juju rollback --prune` prunes on
// demand and `juju doctor` says what the journal holds.
func TestJournalPrune(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "start\n"})
	home := t.TempDir()
	// 1 MiB: each overwrite below keeps a 400 KB pre-image.
	writeConfig(t, home, "[journal]\nmaxSizeMiB = 1\nmaxAgeDays = 0\n")
	s := startHome(t, home, root, "--mode", "trusted")
	var ids []string
	for i := range 5 {
		content := strings.Repeat(string(rune('a'+i)), 400<<10)
		ids = append(ids, changeID(t, s, "write_file", map[string]any{"path": "a.txt", "content": content}))
	}

	// The server pruned by itself, in the background, after the change
	// that took the journal past 1 MiB.
	var first string
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		h := structured(t, s.call("change_history", map[string]any{"limit": 50}))
		ch := h["changes"].([]any)
		first = ch[len(ch)-1].(map[string]any)["id"].(string)
		if first != ids[0] {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if first == ids[0] {
		t.Fatalf("the server kept every change past the size limit")
	}
	res := s.call("rollback_changes", map[string]any{"changeId": ids[0]})
	if !res.IsError || !strings.Contains(text(res), "NOT_FOUND") || !strings.Contains(text(res), "was pruned") {
		t.Fatalf("rollback_changes of a pruned change: %s", text(res))
	}
	code, _, errs := jujuCLI(t, home, "rollback", "--root", root, ids[0])
	if code != 1 || !strings.Contains(errs, "was pruned from the journal") || !strings.Contains(errs, "up to 1 MiB") {
		t.Fatalf("juju rollback of a pruned change: %d %s", code, errs)
	}

	// On demand: the CLI prunes whatever is past the limits now.
	for i := range 3 {
		changeID(t, s, "write_file", map[string]any{"path": "a.txt", "content": strings.Repeat(string(rune('p'+i)), 400<<10)})
	}
	code, out, errs := jujuCLI(t, home, "rollback", "--root", root, "--prune", "--json")
	var pr struct {
		Changes int    `json:"changes"`
		Last    string `json:"last"`
		Freed   int64  `json:"freedBytes"`
		Kept    struct {
			Changes  int    `json:"changes"`
			Bytes    int64  `json:"bytes"`
			OldestID string `json:"oldestId"`
		} `json:"kept"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &pr) != nil {
		t.Fatalf("juju rollback --prune --json: %d %s %s", code, out, errs)
	}
	if pr.Kept.Bytes > 1<<20 || pr.Kept.Changes < 1 || pr.Kept.OldestID == "" {
		t.Fatalf("after --prune the journal holds %+v", pr.Kept)
	}
	code, out, _ = jujuCLI(t, home, "rollback", "--root", root, "--prune")
	if code != 0 || !strings.Contains(out, "Nothing to prune") || !strings.Contains(out, "The journal holds") {
		t.Fatalf("a second --prune: %d %s", code, out)
	}
	// The kept changes still roll back.
	h := structured(t, s.call("change_history", map[string]any{"limit": 1}))
	last := h["changes"].([]any)[0].(map[string]any)["id"].(string)
	if code, out, errs := jujuCLI(t, home, "rollback", "--root", root, last); code != 0 {
		t.Fatalf("rollback of a kept change: %d %s %s", code, out, errs)
	}

	// juju doctor reports the journal of the workspace.
	code, out, errs = jujuCLI(t, home, "doctor", "--root", root, "--json")
	var doc struct {
		Journal *struct {
			Changes    int    `json:"changes"`
			Bytes      int64  `json:"bytes"`
			OldestID   string `json:"oldestId"`
			MaxSizeMiB int64  `json:"maxSizeMiB"`
			Pruned     string `json:"prunedThrough"`
		} `json:"journal"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Journal == nil {
		t.Fatalf("doctor --json: %d %v %s %s", code, err, out, errs)
	}
	if j := doc.Journal; j.Changes < 2 || j.Bytes == 0 || j.OldestID == "" || j.MaxSizeMiB != 1 || j.Pruned == "" {
		t.Fatalf("doctor's journal: %+v", *j)
	}
	_, out, _ = jujuCLI(t, home, "doctor", "--root", root)
	if !strings.Contains(out, "Change journal") || !strings.Contains(out, "up to 1 MiB") {
		t.Fatalf("doctor's text has no journal section:\n%s", out)
	}
}

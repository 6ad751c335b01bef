package test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestChangeIDsPastAMillionSortByTime holds that a journal past its
// millionth change keeps its changes in order. Ids were "c" and the number
// zero-padded to six digits, and bbolt orders its keys by bytes, so
// c1000000 sorted before c999999: change_history listed the newest
// changes last, and a rollback since c999999 left out every change after
// it and was refused as a conflict with them. A longer number now takes a
// later letter (d1000000), and c1000000 typed is found as it.
func TestChangeIDsPastAMillionSortByTime(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "0\n"})
	home := t.TempDir()
	s := startHome(t, home, root)
	s.ok("write_file", map[string]any{"path": "a.txt", "content": "first\n"})
	s.c.Close()
	dbs, _ := filepath.Glob(filepath.Join(home, "state", "workspaces", "*", "journal.db"))
	if len(dbs) != 1 {
		t.Fatalf("journal files %v", dbs)
	}
	db, err := bolt.Open(dbs[0], 0o600, &bolt.Options{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("changes")).SetSequence(999_997) })
	if cerr := db.Close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}

	s = startHome(t, home, root)
	var ids []string
	for _, c := range []string{"1\n", "2\n", "3\n", "4\n"} {
		sc := structured(t, s.call("write_file", map[string]any{"path": "a.txt", "content": c}))
		ids = append(ids, sc["changeId"].(string))
	}
	h := structured(t, s.call("change_history", map[string]any{}))
	var listed []string
	for _, c := range h["changes"].([]any) {
		listed = append(listed, c.(map[string]any)["id"].(string))
	}
	if got, want := strings.Join(listed[:4], " "), strings.Join([]string{ids[3], ids[2], ids[1], ids[0]}, " "); got != want {
		t.Fatalf("history lists %s, want the newest first: %s", got, want)
	}
	s.ok("rollback_changes", map[string]any{"changeId": "c999999", "scope": "since"})
	if got := disk(t, root, "a.txt"); got != "1\n" {
		t.Fatalf("after a rollback since c999999 a.txt holds %q, want the content of c999998", got)
	}
	if ids[1] != "c999999" || ids[2] != "d1000000" {
		t.Fatalf("ids %v", ids)
	}
	if got := s.ok("change_history", map[string]any{"changeId": "c1000000"}); !strings.Contains(got, "d1000000") {
		t.Fatalf("change c1000000 typed is not found: %s", got)
	}
}

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two jujus serve one workspace; one is killed halfway through a change
// of 200 files while the other keeps running. The survivor settled its
// journal when it started, long before the crash, yet its next call must
// not see the half change either: it puts the change right first, as a
// juju starting after the crash would.
func TestSurvivorSettlesAPeersCrash(t *testing.T) {
	const n = 200
	root := t.TempDir()
	home := t.TempDir()
	os.Symlink(sharedCache, filepath.Join(home, "cache"))
	name := func(i int) string { return fmt.Sprintf("f%03d.txt", i) }
	var ops []map[string]any
	for i := range n {
		os.WriteFile(filepath.Join(root, name(i)), []byte("old\n"), 0o644)
		ops = append(ops, map[string]any{"op": "write", "path": name(i), "content": "new\n"})
	}
	survivor := startHome(t, home, root, "--mode", "trusted")
	survivor.ok("read_file", map[string]any{"path": name(0)}) // settled at start
	replaced := ""
	for try := 0; try < 5 && replaced == ""; try++ {
		killAtFirstRename(t, home, root, ops)
		olds := 0
		for i := range n {
			switch b, _ := os.ReadFile(filepath.Join(root, name(i))); string(b) {
			case "new\n":
				replaced = name(i)
			case "old\n":
				olds++
			}
		}
		if olds == 0 {
			replaced = ""
			for i := range n {
				os.WriteFile(filepath.Join(root, name(i)), []byte("old\n"), 0o644)
			}
		}
	}
	if replaced == "" {
		t.Fatal("juju was never killed halfway through the change")
	}
	if got := survivor.ok("read_file", map[string]any{"path": replaced}); !strings.Contains(got, "old") || strings.Contains(got, "new") {
		t.Fatalf("the running juju's read after its peer's crash saw the change's half: %s", got)
	}
	for i := range n {
		if b, _ := os.ReadFile(filepath.Join(root, name(i))); string(b) != "old\n" {
			t.Fatalf("%s holds %q after the survivor's read: the half change was not put back", name(i), b)
		}
	}
	// Nothing of the crashed change is on record: the history and `juju
	// rollback` agree with the files.
	if h := survivor.ok("change_history", map[string]any{}); strings.Contains(h, "apply_changes") {
		t.Fatalf("the crashed change is in the history:\n%s", h)
	}
}

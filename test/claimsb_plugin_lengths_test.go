package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaimBPluginWriteLengthsAreChecked holds juju to "nothing a plugin
// sends may crash the host or corrupt the journal" for the lengths of a
// change's writes, which the plugin states: a third-party plugin granted
// fs.write asks for two writes of one byte each, the second claiming
// 2^63-1 bytes. The sum overflowed the host's check and sliced the body
// out of range: a panic in the host, logged with its stack, after which
// the journal read its whole database back for damage, and the answer
// was INTERNAL telling the model to try again. It is INVALID_ARGUMENT,
// nothing is written, and the journal serves on.
func TestClaimBPluginWriteLengthsAreChecked(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "old\n"})
	home := t.TempDir()
	installForTest(t, home, "plugins/testplugins/writer", []string{"fs.write"})
	s := startHome(t, home, root, "--mode", "trusted")
	msg := s.fail("test_write_lying", map[string]any{"path": "lie.txt"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "operation 2") {
		t.Errorf("the refusal does not name the write at fault: %s", msg)
	}
	for _, name := range []string{"lie.txt", "lie.txt.2"} {
		if _, err := os.Lstat(filepath.Join(root, name)); !os.IsNotExist(err) {
			t.Errorf("%s was written (%v)", name, err)
		}
	}
	s.ok("test_write", map[string]any{"path": "a.txt", "content": "new\n"})
	if disk(t, root, "a.txt") != "new\n" {
		t.Fatal("the journal stopped serving")
	}
	if log := s.stderr(); strings.Contains(log, "panic") {
		t.Errorf("the host panicked:\n%s", log)
	}
}

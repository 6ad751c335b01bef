package test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jujutools/juju/internal/testfs"
)

// juju's state folder on a disk that fills while a session reads: the
// records the full disk cut short are lost, and only they; the first call
// once there is room is in juju audit. Its record was appended onto the
// fragment's line, and juju audit skipped the line whole.
func TestAuditAfterAFullDiskKeepsTheNextCall(t *testing.T) {
	top := testfs.SmallDisk(t, "4m")
	home, filler := filepath.Join(top, "home"), filepath.Join(top, "filler")
	os.Mkdir(home, 0o700)
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	s := startHome(t, home, root, "--mode", "trusted")
	s.ok("read_file", map[string]any{"path": "a.txt"})
	fillFull(t, top, filler)
	// Enough records to fill the audit log's last block: one is cut.
	for i := range 60 {
		s.call("read_file", map[string]any{"path": "a.txt", "limit": 100 + i})
	}
	os.Remove(filler)
	s.ok("read_file", map[string]any{"path": "a.txt", "limit": 7})
	last := auditJSON(t, home, root, "--limit", "1")
	if len(last) != 1 || last[0].Args != `{limit: 7, path: "a.txt"}` {
		t.Fatalf("juju audit's newest record is not the call made once there was room: %+v", last)
	}
}

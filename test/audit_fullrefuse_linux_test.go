package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/testfs"
)

// juju's home on a disk a command filled: a command (tier X) cannot put
// its started record in the audit log, so it does not run — TOO_LARGE,
// naming the folder — rather than running with no trace in juju audit.
// Reads are still served. Once there is room the command runs, on record.
func TestCommandRefusedWhenTheAuditLogCannotBeWritten(t *testing.T) {
	top := testfs.SmallDisk(t, "4m")
	home, filler := filepath.Join(top, "home"), filepath.Join(top, "filler")
	os.Mkdir(home, 0o700)
	root := workspace(t, map[string]string{"a.txt": "hello\n"}) // on another disk
	s := startHome(t, home, root, "--mode", "trusted")
	s.ok("read_file", map[string]any{"path": "a.txt"})
	fillFull(t, top, filler)
	// Reads are served on the full disk, and enough of them fill the
	// audit log's last block.
	for i := range 60 {
		if got := s.ok("read_file", map[string]any{"path": "a.txt", "limit": 100 + i}); !strings.Contains(got, "hello") {
			t.Fatalf("a read on the full disk: %s", got)
		}
	}

	msg := s.fail("run_command", map[string]any{"command": "touch OFFRECORD"}, "TOO_LARGE")
	if !strings.Contains(msg, "audit log") || !strings.Contains(msg, "full") || !strings.Contains(msg, "nothing ran") {
		t.Errorf("the refusal does not say why: %s", msg)
	}
	if fileExists(root, "OFFRECORD") {
		t.Fatal("a command ran that the audit log could not record")
	}
	// A write is refused by its journal, on the same full disk, alike.
	if msg := s.fail("write_file", map[string]any{"path": "b.txt", "content": "b\n"}, "TOO_LARGE"); !strings.Contains(msg, "full") || fileExists(root, "b.txt") {
		t.Errorf("a write on the full disk: %s", msg)
	}
	if got := s.ok("read_file", map[string]any{"path": "a.txt"}); !strings.Contains(got, "hello") {
		t.Fatalf("a read after the refusal: %s", got)
	}

	os.Remove(filler)
	s.ok("run_command", map[string]any{"command": "touch ONRECORD"})
	if !fileExists(root, "ONRECORD") {
		t.Fatal("the command did not run once there was room")
	}
	var found bool
	for _, e := range auditJSON(t, home, root) {
		found = found || (e.Tool == "run_command" && strings.Contains(e.Args, "ONRECORD") && e.Outcome == "ok")
	}
	if !found {
		t.Fatal("the command run once there was room is not in juju audit")
	}
}

// The job tools start nothing, so they need no started record: on the
// full disk a background command may well be what filled it, and
// cancel_job must still stop it (its outcome is still recorded when
// there is room). Before, cancel_job was refused TOO_LARGE, asking to free
// space that the job went on filling.
func TestJobStoppedWhenTheAuditLogCannotBeWritten(t *testing.T) {
	top := testfs.SmallDisk(t, "4m")
	home, filler := filepath.Join(top, "home"), filepath.Join(top, "filler")
	os.Mkdir(home, 0o700)
	root := workspace(t, map[string]string{"a.txt": "hello\n"}) // on another disk
	s := startHome(t, home, root, "--mode", "trusted", "--sandbox", "off")
	job, _ := structured(t, s.call("run_command", map[string]any{"command": "sleep 120", "background": true}))["jobId"].(string)
	if job == "" {
		t.Fatal("no job id")
	}
	fillFull(t, top, filler)
	for i := range 60 { // fill the audit log's last block
		s.ok("read_file", map[string]any{"path": "a.txt", "limit": 100 + i})
	}
	s.fail("run_command", map[string]any{"command": "touch OFFRECORD"}, "TOO_LARGE")
	if st := structured(t, s.call("job_status", map[string]any{"jobId": job})); st["state"] != "running" {
		t.Fatalf("job_status on the full disk: %v", st)
	}
	if st := structured(t, s.call("cancel_job", map[string]any{"jobId": job})); st["state"] != "killed" {
		t.Fatalf("cancel_job on the full disk did not stop the job: %v", st)
	}
}

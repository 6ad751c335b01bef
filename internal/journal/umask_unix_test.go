//go:build unix

package journal

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A new file or folder takes the owner's umask, as a shell's > and mkdir
// make them: under 077 nothing juju makes is readable by others. The umask
// is read when the package starts, so the test runs itself again in a
// process started under 077.
func TestNewFilesFollowTheUmask(t *testing.T) {
	if os.Getenv("JUJU_TEST_UMASK_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestNewFilesFollowTheUmask$", "-test.count=1")
		cmd.Env = append(os.Environ(), "JUJU_TEST_UMASK_CHILD=1")
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		old := syscall.Umask(0o77) // the child inherits it
		err := cmd.Start()
		syscall.Umask(old)
		if err == nil {
			err = cmd.Wait()
		}
		if err != nil {
			t.Fatalf("under umask 077: %v\n%s", err, out.String())
		}
		return
	}
	if startUmask != 0o77 {
		t.Fatalf("the umask read at start is %o, want 77", startUmask)
	}
	f := newFixture(t, map[string]string{"old.txt": "old\n"})
	os.Chmod(filepath.Join(f.root, "old.txt"), 0o644)
	f.mustApply(write("new/deeper/n.txt", "n\n"), write("old.txt", "changed\n"))
	for rel, want := range map[string]os.FileMode{"new": 0o700, "new/deeper": 0o700, "new/deeper/n.txt": 0o600, "old.txt": 0o644} {
		fi, err := os.Stat(filepath.Join(f.root, rel))
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %v", rel, fi.Mode(), err, want)
		}
	}
}

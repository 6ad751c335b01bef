//go:build unix

package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// The helper beside juju is used only when it can be trusted as juju is
// and speaks juju's protocol; anything else falls back on juju itself.
func TestStandaloneHelper(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "juju")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	helper := filepath.Join(dir, HelperProgram)
	write := func(body string, mode os.FileMode) {
		t.Helper()
		os.Remove(helper)
		if err := os.WriteFile(helper, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(helper, mode) // past the umask
	}
	if got := StandaloneHelper(exe); got != "" {
		t.Errorf("no helper: got %q", got)
	}
	answer := "#!/bin/sh\necho " + strconv.Itoa(HelperProtocol) + "\n"
	write(answer, 0o755)
	if got := StandaloneHelper(exe); got != helper {
		t.Errorf("a good helper: got %q, want %q", got, helper)
	}
	if got := DefaultHelperFor(exe); len(got) != 1 || got[0] != helper {
		t.Errorf("DefaultHelperFor: %q", got)
	}
	write("#!/bin/sh\necho 99\n", 0o755)
	if got := StandaloneHelper(exe); got != "" {
		t.Errorf("another protocol: got %q", got)
	}
	write(answer, 0o775)
	if got := StandaloneHelper(exe); got != "" {
		t.Errorf("a group-writable helper: got %q", got)
	}
	write("#!/bin/sh\nexit 3\n", 0o755)
	if got := StandaloneHelper(exe); got != "" {
		t.Errorf("a failing helper: got %q", got)
	}
	write(answer, 0o755)
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if got := StandaloneHelper(exe); got != "" {
		t.Errorf("a helper in a world-writable folder: got %q", got)
	}
	os.Chmod(dir, 0o755)
	os.Remove(helper)
	if err := os.Symlink("/bin/true", helper); err != nil {
		t.Fatal(err)
	}
	if got := StandaloneHelper(exe); got != "" {
		t.Errorf("a link: got %q", got)
	}
	if got := DefaultHelperFor(exe); len(got) != 2 || got[0] != exe || got[1] != HelperCommand {
		t.Errorf("fallback: %q", got)
	}
}

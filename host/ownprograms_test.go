//go:build unix

package host

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/jujutools/juju/sandbox"
)

// juju's own programs, guarded inside the roots, name the helper beside
// juju without running it, whichever protocol it speaks.
func TestOwnProgramsNameTheHelperWithoutRunningIt(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "juju")
	helper := filepath.Join(dir, sandbox.HelperProgram)
	ran := filepath.Join(t.TempDir(), "ran")
	for path, body := range map[string]string{exe: "#!/bin/sh\n", helper: "#!/bin/sh\ntouch " + ran + "\necho 99\n"} {
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chmod(path, 0o755) // past the umask
	}
	if got := ownProgramsOf(exe); !slices.Equal(got, []string{exe, helper}) {
		t.Errorf("ownProgramsOf = %q, want juju and its helper", got)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("naming juju's programs ran the helper")
	}
	os.Chmod(helper, 0o775)
	if got := ownProgramsOf(exe); !slices.Equal(got, []string{exe}) {
		t.Errorf("a group-writable helper: ownProgramsOf = %q, want juju alone", got)
	}
}

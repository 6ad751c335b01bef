package sandbox

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// The process limit leaves the owner at least half of a small
// RLIMIT_NPROC of theirs, and never passes MaxProcesses.
func TestProcessLimit(t *testing.T) {
	for release, want := range map[string]bool{"6.8.0-45-generic": true, "5.14.0": true, "5.15.0-1": true, "5.13.19": false, "4.19.0": false, "": false, "x": false} {
		if got := countsPerNamespace(release); got != want {
			t.Errorf("countsPerNamespace(%q) = %v", release, got)
		}
	}
	if !countsPerNamespace(KernelRelease()) {
		t.Skipf("kernel %s counts RLIMIT_NPROC over all the owner's processes: no limit", KernelRelease())
	}
	if n := ProcessLimit(); n < 1 || n > MaxProcesses {
		t.Fatalf("ProcessLimit = %d, want 1 to %d", n, MaxProcesses)
	}
	if os.Geteuid() != 0 {
		t.Skip("lowers the test's own RLIMIT_NPROC, which only root's fork ignores")
	}
	var was unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NPROC, &was); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Setrlimit(unix.RLIMIT_NPROC, &was) })
	if err := unix.Setrlimit(unix.RLIMIT_NPROC, &unix.Rlimit{Cur: 300, Max: was.Max}); err != nil {
		t.Fatal(err)
	}
	if n := ProcessLimit(); n > 150 || n < 1 {
		t.Errorf("ProcessLimit under RLIMIT_NPROC 300 = %d, want at most 150", n)
	}
}

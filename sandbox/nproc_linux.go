package sandbox

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// MaxProcesses is the most processes and threads a sandboxed command may
// have at once, its own and all it starts (ProcessLimit may give fewer).
// A build runs hundreds (go build and cargo: a compiler per core, each
// with its threads); a command that spawns without end (a fork bomb, a
// runaway test) would otherwise take every process the owner may have,
// and juju, which creates a thread when its goroutines block, dies of
// "runtime: failed to create new OS thread" the first time it needs one.
const MaxProcesses = 8192

// ProcessLimit is the RLIMIT_NPROC a sandboxed command gets: MaxProcesses,
// or less where the owner's own limit or the machine's pid_max is small —
// at most half of the first and a quarter of the second, so that the
// sandbox never holds all the room juju and the owner's other programs
// share. It is read once, when the sandbox is detected. It is 0 (no
// limit) on a kernel before 5.14, which counted the limit over all the
// owner's processes, in every user namespace.
func ProcessLimit() int {
	if !countsPerNamespace(KernelRelease()) {
		return 0
	}
	n := MaxProcesses
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NPROC, &rl); err == nil && rl.Cur != unix.RLIM_INFINITY && rl.Cur/2 < uint64(n) {
		n = int(rl.Cur / 2)
	}
	if b, err := os.ReadFile("/proc/sys/kernel/pid_max"); err == nil {
		if max, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && max/4 < n {
			n = max / 4
		}
	}
	return max(n, 1)
}

// limitProcesses sets RLIMIT_NPROC, soft and hard, to n in the helper,
// which the command inherits and cannot raise (it has no capability).
// The kernel counts it for the command's user in the user namespace
// bubblewrap made for the sandbox, so it bounds the sandbox's processes
// and threads, not the owner's others; it exempts real root, so a juju
// run as root gets no bound (SECURITY.md).
func limitProcesses(n int) error {
	rl := unix.Rlimit{Cur: uint64(n), Max: uint64(n)}
	if err := unix.Setrlimit(unix.RLIMIT_NPROC, &rl); err != nil {
		return fmt.Errorf("setting the process limit (RLIMIT_NPROC %d): %w", n, err)
	}
	return nil
}

// countsPerNamespace reports whether a kernel of release counts
// RLIMIT_NPROC per user namespace (5.14 and later).
func countsPerNamespace(release string) bool {
	var major, minor int
	if _, err := fmt.Sscanf(release, "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major > 5 || major == 5 && minor >= 14
}

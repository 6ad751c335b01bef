package sandbox

import (
	"encoding/binary"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// run interprets prog (the few classic BPF instructions the filter uses)
// on one system call, as the kernel would.
func runBPF(t *testing.T, prog []unix.SockFilter, arch uint32, nr uint32, args [6]uint64) uint32 {
	t.Helper()
	data := make([]byte, 64)
	binary.LittleEndian.PutUint32(data[offsetNR:], nr)
	binary.LittleEndian.PutUint32(data[offsetArch:], arch)
	for i, a := range args {
		binary.LittleEndian.PutUint64(data[argOffset(i):], a)
	}
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.Code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			acc = binary.LittleEndian.Uint32(data[in.K:])
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K:
			var hit bool
			switch in.Code & 0xf0 {
			case unix.BPF_JEQ:
				hit = acc == in.K
			case unix.BPF_JGE:
				hit = acc >= in.K
			case unix.BPF_JSET:
				hit = acc&in.K != 0
			}
			if hit {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case unix.BPF_RET | unix.BPF_K:
			return in.K
		default:
			t.Fatalf("instruction %d: code %#x not expected", pc, in.Code)
		}
	}
	t.Fatal("the program ran off its end")
	return 0
}

func TestNoSetIDFilter(t *testing.T) {
	prog := noSetIDFilter(nativeArch, hasX32, modeArgs, refusedCalls)
	if len(prog) == 0 {
		t.Skip("no filter on this architecture")
	}
	allow, eperm := uint32(unix.SECCOMP_RET_ALLOW), uint32(unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM))
	enosys, kill := uint32(unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS)), uint32(unix.SECCOMP_RET_KILL_PROCESS)
	for nr, arg := range modeArgs {
		for mode, want := range map[uint64]uint32{0o755: allow, 0o4755: eperm, 0o2755: eperm, 0o6777: eperm, 0o1777: allow, 0x1_0000_0000 | 0o644: allow} {
			var args [6]uint64
			for i := range args {
				args[i] = 0o4777 // every other argument set-ID-like: only the mode counts
			}
			args[arg] = mode
			if got := runBPF(t, prog, nativeArch, uint32(nr), args); got != want {
				t.Errorf("call %d, mode %o: %#x, want %#x", nr, mode, got, want)
			}
		}
	}
	for _, nr := range refusedCalls {
		if got := runBPF(t, prog, nativeArch, uint32(nr), [6]uint64{}); got != enosys {
			t.Errorf("call %d: %#x, want ENOSYS", nr, got)
		}
	}
	// The keyrings, which no namespace holds, are out of reach
	// (TestSandboxReachesNoKeyring).
	for _, nr := range []uint32{unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY, unix.SYS_KEYCTL} {
		if got := runBPF(t, prog, nativeArch, nr, [6]uint64{}); got != enosys {
			t.Errorf("keyring call %d: %#x, want ENOSYS", nr, got)
		}
	}
	// Calls outside the table pass whatever their arguments.
	for _, nr := range []uint32{unix.SYS_READ, unix.SYS_WRITE, unix.SYS_EXECVE, unix.SYS_MKDIRAT} {
		if got := runBPF(t, prog, nativeArch, nr, [6]uint64{0o4777, 0o4777, 0o4777, 0o4777}); got != allow {
			t.Errorf("call %d: %#x, want allow", nr, got)
		}
	}
	if got := runBPF(t, prog, nativeArch^1, unix.SYS_READ, [6]uint64{}); got != kill {
		t.Errorf("another architecture: %#x, want kill", got)
	}
	if hasX32 {
		if got := runBPF(t, prog, nativeArch, 0x40000000|unix.SYS_FCHMODAT, [6]uint64{0, 0, 0o4755}); got != kill {
			t.Errorf("an x32 call: %#x, want kill", got)
		}
	}
}

// Without Landlock, bubblewrap's init (PID 1 of the sandbox) runs under
// the filter too: it is the command's user and dumpable, and a command
// that ptraced it could otherwise have it chmod a file set-user-ID
// (test/TestSandboxWithoutLandlockMakesNoSetIDFiles does). With Landlock
// bubblewrap is started as it is.
func TestBubblewrapInitUnderTheFilterWithoutLandlock(t *testing.T) {
	needBubblewrap(t)
	if len(noSetIDFilter(nativeArch, hasX32, modeArgs, refusedCalls)) == 0 {
		t.Skip("no filter on this architecture")
	}
	root := t.TempDir()
	s := New(testHelper(t))
	s.detect()
	s.landlock = Availability{Reason: "left out by the test"}
	argv, mech, err := s.Wrap(Policy{Write: []string{root}}, root, []string{"grep", "^Seccomp:", "/proc/1/status", "/proc/self/status"})
	if err != nil {
		t.Fatal(err)
	}
	if mech != MechBubblewrap {
		t.Fatalf("mechanism %q", mech)
	}
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, f := range []string{"/proc/1/status", "/proc/self/status"} {
		if !strings.Contains(string(out), f+":Seccomp:\t2") {
			t.Errorf("%s is not under a seccomp filter:\n%s", f, out)
		}
	}
	// Under Landlock, nothing is put in front of bubblewrap.
	s.landlock = Availability{Available: true, Version: "1"}
	if argv, _, err := s.Wrap(Policy{Write: []string{root}}, root, []string{"true"}); err != nil || argv[0] != s.bwrap.Path {
		t.Errorf("with Landlock: %q %v", argv, err)
	}
}

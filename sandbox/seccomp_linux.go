package sandbox

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// No set-user-ID or set-group-ID file made inside the sandbox.
//
// A command may chmod a file it owns as it likes, and with the mode bits
// S_ISUID and S_ISGID it makes a program that runs as its owner for whoever
// starts it. Inside the sandbox that is harmless (no_new_privs, nosuid
// mounts), but the file stays in the workspace: with juju running as root
// (containers, devcontainers) the sandbox's root is the host's, so a
// command could leave a set-user-ID root shell for any local user. So the
// helper installs a seccomp filter before it execs the command: every
// call that sets a file's mode (chmod, fchmod, fchmodat, fchmodat2, and
// the modes of open, openat, creat, mknod and mknodat) fails with EPERM
// when the mode asks for either bit; openat2, whose mode seccomp cannot
// see, fails with ENOSYS (libc falls back to openat), and so does
// io_uring_setup, whose operations it cannot see either. A system call of
// another architecture (a 32-bit program, x32) kills the process: its
// numbers are not the ones checked.
//
// The same filter keeps the command away from the kernel's keyrings:
// add_key, request_key and keyctl fail with ENOSYS, as on a kernel built
// without keys. A keyring is no file and no namespace bubblewrap makes
// holds it: the command kept juju's session keyring, the one a login
// gives every program of the owner's session, where it read the keys the
// owner's programs keep there, replaced them, and left keys of its own
// that outlived juju (TestSandboxReachesNoKeyring).

// setIDBits are S_ISUID and S_ISGID.
const setIDBits = unix.S_ISUID | unix.S_ISGID

// seccompData offsets (struct seccomp_data): the call's number, its
// architecture, and the low 32 bits of argument i (little-endian) at
// argOffset(i).
const (
	offsetNR   = 0
	offsetArch = 4
)

func argOffset(i int) uint32 { return 16 + 8*uint32(i) }

// noSetIDFilter is the filter's program: modeArgs maps each system call to
// the index of its mode argument; refused lists those refused whole.
func noSetIDFilter(arch uint32, x32 bool, modeArgs map[uintptr]int, refused []uintptr) []unix.SockFilter {
	if arch == 0 {
		return nil
	}
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	jump := func(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: code, K: k, Jt: jt, Jf: jf}
	}
	const (
		ld   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		jset = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		ret  = unix.BPF_RET | unix.BPF_K
	)
	allow := stmt(ret, unix.SECCOMP_RET_ALLOW)
	eperm := stmt(ret, unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM))
	enosys := stmt(ret, unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS))
	kill := stmt(ret, unix.SECCOMP_RET_KILL_PROCESS)

	prog := []unix.SockFilter{
		stmt(ld, offsetArch),
		jump(jeq, arch, 1, 0),
		kill,
		stmt(ld, offsetNR),
	}
	if x32 {
		prog = append(prog, jump(jge, 0x40000000, 0, 1), kill) // __X32_SYSCALL_BIT
	}
	for _, nr := range refused {
		prog = append(prog, jump(jeq, uint32(nr), 0, 1), enosys)
	}
	for _, nr := range sortedKeys(modeArgs) {
		// Not this call: skip its four instructions. This call: load the
		// mode and refuse it with either bit set.
		prog = append(prog,
			jump(jeq, uint32(nr), 0, 4),
			stmt(ld, argOffset(modeArgs[nr])),
			jump(jset, setIDBits, 0, 1),
			eperm,
			allow,
		)
	}
	return append(prog, allow)
}

func sortedKeys(m map[uintptr]int) []uintptr {
	keys := make([]uintptr, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// refuseSetID installs the filter on the calling thread (the helper execs
// the command from it, which keeps the filter for good). It needs
// no_new_privs, which bubblewrap set and which is set again here.
func refuseSetID() error {
	prog := noSetIDFilter(nativeArch, hasX32, modeArgs, refusedCalls)
	if len(prog) == 0 {
		return nil
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("setting no_new_privs: %w", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("installing the seccomp filter that refuses set-user-ID files: %w", err)
	}
	return nil
}

// execBubblewrap execs bubblewrap, argv[0], with argv's arguments after
// --seccomp FD, FD a pipe holding the filter refuseSetID installs:
// bubblewrap installs it in the sandbox's init (PID 1, which it forks
// before the helper and which runs none of the helper's own filter) and
// in the helper before it runs. Without Landlock nothing else keeps a
// command from ptracing that init (see Sandbox.filtered). On an
// architecture without the filter, bubblewrap is started as it is. It
// returns only on failure, with HelperExitCode.
func execBubblewrap(argv []string, stderr io.Writer) int {
	if len(argv) == 0 {
		fmt.Fprintf(stderr, "juju %s: %s needs bubblewrap's command line\n", HelperCommand, BubblewrapFlag)
		return HelperExitCode
	}
	args := append([]string(nil), argv...)
	if prog := noSetIDFilter(nativeArch, hasX32, modeArgs, refusedCalls); len(prog) > 0 {
		fd, err := filterPipe(prog)
		if err != nil {
			fmt.Fprintf(stderr, "juju %s: the command was not run: %v\n", HelperCommand, err)
			return HelperExitCode
		}
		args = append([]string{argv[0], "--seccomp", strconv.Itoa(fd)}, argv[1:]...)
	}
	err := syscall.Exec(argv[0], args, os.Environ())
	fmt.Fprintf(stderr, "juju %s: exec %s: %v\n", HelperCommand, argv[0], err)
	return HelperExitCode
}

// filterPipe returns the read end of a pipe holding prog as struct
// sock_filter records, to be inherited across exec.
func filterPipe(prog []unix.SockFilter) (int, error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return -1, fmt.Errorf("a pipe for the seccomp filter: %w", err)
	}
	defer unix.Close(p[1])
	b := unsafe.Slice((*byte)(unsafe.Pointer(&prog[0])), len(prog)*int(unsafe.Sizeof(prog[0])))
	// A pipe holds at least 4 KiB; the filter is a few hundred bytes.
	if n, err := unix.Write(p[1], b); err != nil || n != len(b) {
		unix.Close(p[0])
		return -1, fmt.Errorf("writing the seccomp filter: %d of %d bytes, %v", n, len(b), err)
	}
	if _, err := unix.FcntlInt(uintptr(p[0]), unix.F_SETFD, 0); err != nil {
		unix.Close(p[0])
		return -1, fmt.Errorf("handing the seccomp filter on: %w", err)
	}
	return p[0], nil
}

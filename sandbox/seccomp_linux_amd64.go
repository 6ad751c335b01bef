package sandbox

import "golang.org/x/sys/unix"

const (
	nativeArch = unix.AUDIT_ARCH_X86_64
	hasX32     = true
)

// modeArgs are the calls that set a file's mode, and which argument is the
// mode.
var modeArgs = map[uintptr]int{
	unix.SYS_CHMOD:     1,
	unix.SYS_FCHMOD:    1,
	unix.SYS_FCHMODAT:  2,
	unix.SYS_FCHMODAT2: 2,
	unix.SYS_OPEN:      2,
	unix.SYS_OPENAT:    3,
	unix.SYS_CREAT:     1,
	unix.SYS_MKNOD:     1,
	unix.SYS_MKNODAT:   2,
}

// refusedCalls hide what they do from the filter (openat2, io_uring), or
// reach the kernel's keyrings, which no namespace holds (add_key,
// request_key, keyctl).
var refusedCalls = []uintptr{unix.SYS_OPENAT2, unix.SYS_IO_URING_SETUP, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY, unix.SYS_KEYCTL}

//go:build linux

// Command nolandlock is a helper of juju's end-to-end tests: it runs its
// command as on a kernel without Landlock. A seccomp filter, inherited by
// everything the command starts, makes landlock_create_ruleset,
// landlock_add_rule and landlock_restrict_self fail with ENOSYS, as on a
// kernel built without it, so juju finds no Landlock and confines commands
// with bubblewrap and its helper alone.
//
//	nolandlock COMMAND [ARG…]
package main

import (
	"log"
	"os"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("nolandlock: ")
	if len(os.Args) < 2 {
		log.Fatal("usage: nolandlock COMMAND [ARG…]")
	}
	const (
		ld  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		ret = unix.BPF_RET | unix.BPF_K
	)
	var prog []unix.SockFilter
	prog = append(prog, unix.SockFilter{Code: ld, K: 0}) // the call's number
	for _, nr := range []uint32{unix.SYS_LANDLOCK_CREATE_RULESET, unix.SYS_LANDLOCK_ADD_RULE, unix.SYS_LANDLOCK_RESTRICT_SELF} {
		prog = append(prog,
			unix.SockFilter{Code: jeq, K: nr, Jt: 0, Jf: 1},
			unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)})
	}
	prog = append(prog, unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ALLOW})
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	// Without CAP_SYS_ADMIN a filter needs no_new_privs.
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			log.Fatal(err)
		}
		if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
			log.Fatal(err)
		}
	}
	path, err := exec.LookPath(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(syscall.Exec(path, os.Args[1:], os.Environ()))
}

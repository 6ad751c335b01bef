//go:build linux

// Command keyring is a helper of juju's end-to-end tests. Kernel keyrings
// are no file and belong to no namespace bubblewrap makes: a process keeps
// the session keyring of what started it, as a login's pam_keyinit gives
// every program of the owner's session.
//
//	keyring wrap NAME VALUE PROGRAM [ARG...]
//
// joins a new session keyring, adds a user key NAME holding VALUE to it and
// execs PROGRAM (juju) in its place, which inherits the keyring.
//
//	keyring probe NAME
//
// is what a confined command tries: it looks for the key NAME in its
// session keyring and prints what it holds, then adds a key of its own
// there, and prints what each call answered.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

func main() {
	if len(os.Args) >= 5 && os.Args[1] == "wrap" {
		wrap(os.Args[2], os.Args[3], os.Args[4:])
	}
	if len(os.Args) == 3 && os.Args[1] == "probe" {
		probe(os.Args[2])
		return
	}
	fmt.Fprintln(os.Stderr, "usage: keyring wrap NAME VALUE PROGRAM [ARG...] | keyring probe NAME")
	os.Exit(2)
}

func wrap(name, value string, argv []string) {
	// A keyring joined is the calling thread's: exec from that thread.
	runtime.LockOSThread()
	// An anonymous keyring of its own: the name NULL.
	if _, _, errno := unix.Syscall(unix.SYS_KEYCTL, unix.KEYCTL_JOIN_SESSION_KEYRING, 0, 0); errno != 0 {
		err := error(errno)
		fmt.Fprintln(os.Stderr, "keyring: joining a session keyring:", err)
		os.Exit(1)
	}
	if _, err := unix.AddKey("user", name, []byte(value), unix.KEY_SPEC_SESSION_KEYRING); err != nil {
		fmt.Fprintln(os.Stderr, "keyring: adding the key:", err)
		os.Exit(1)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, "keyring:", err)
		os.Exit(1)
	}
	err = syscall.Exec(path, argv, os.Environ())
	fmt.Fprintln(os.Stderr, "keyring: exec:", err)
	os.Exit(1)
}

func probe(name string) {
	id, err := unix.KeyctlSearch(unix.KEY_SPEC_SESSION_KEYRING, "user", name, 0)
	fmt.Printf("search: %d %v\n", id, err)
	if err == nil {
		buf := make([]byte, 256)
		n, err := unix.KeyctlBuffer(unix.KEYCTL_READ, id, buf, 0)
		if n > len(buf) {
			n = len(buf)
		}
		fmt.Printf("read: %q %v\n", buf[:max(n, 0)], err)
	}
	id, err = unix.AddKey("user", "planted-by-the-command", []byte("x"), unix.KEY_SPEC_SESSION_KEYRING)
	fmt.Printf("add: %d %v\n", id, err)
}

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
)

// HelperArgs are the helper's flags for p under Landlock ABI abi (0: no
// Landlock): the command line after HelperCommand and before "--" and the
// command.
//
//	juju __sandbox --abi N [--alive-fd FD] [--write DIR]… [--pin PATH]… [--net] -- PROGRAM ARGS…
func HelperArgs(p Policy, abi int) []string {
	a := []string{"--abi", strconv.Itoa(abi)}
	if p.AliveFD > 0 {
		a = append(a, "--alive-fd", strconv.Itoa(p.AliveFD))
	}
	for _, d := range p.Write {
		a = append(a, "--write", d)
	}
	for _, d := range p.pinBinds() {
		a = append(a, "--pin", d)
	}
	if p.Network {
		a = append(a, "--net")
	}
	return a
}

// helperSpec is a parsed helper command line.
type helperSpec struct {
	abi     int
	policy  Policy
	command []string
}

func parseHelperArgs(args []string) (helperSpec, error) {
	s := helperSpec{abi: -1}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "--":
			s.command = args[i+1:]
			if len(s.command) == 0 {
				return s, errors.New("no command after --")
			}
			if s.abi < 0 {
				return s, errors.New("--abi N (N ≥ 0) is required")
			}
			return s, nil
		case "--net":
			s.policy.Network = true
		case "--abi", "--alive-fd", "--write", "--pin":
			if i+1 >= len(args) {
				return s, fmt.Errorf("%s needs a value", a)
			}
			i++
			switch a {
			case "--write":
				s.policy.Write = append(s.policy.Write, args[i])
				continue
			case "--pin":
				s.policy.Pinned = append(s.policy.Pinned, args[i])
				continue
			}
			n, err := strconv.Atoi(args[i])
			switch {
			case a == "--alive-fd" && (err != nil || n < 3):
				return s, fmt.Errorf("--alive-fd %q: not a file descriptor past stderr", args[i])
			case a == "--alive-fd":
				s.policy.AliveFD = n
			case err != nil || n < 0:
				return s, fmt.Errorf("--abi %q: not a Landlock ABI version", args[i])
			default:
				s.abi = n
			}
		default:
			return s, fmt.Errorf("unknown flag %q", a)
		}
	}
	return s, errors.New("no -- before the command")
}

// HelperExitCode is the helper's exit code when it cannot confine or start
// the command (as a shell's "cannot execute").
const HelperExitCode = 126

// HelperMain is juju's hidden helper command, run by bubblewrap inside the
// sandbox it built. It first checks that juju still runs (--alive-fd: the
// pipe juju holds open is not at its end), then the pins bubblewrap made (checkMounts:
// each --pin path is a bind of itself), then, unless --abi is 0, restricts
// its own process with Landlock (writes only in the --write folders and
// the devices, no TCP unless --net), checking that the kernel offers at
// least the Landlock ABI the server saw, and then execs the command, which
// inherits the restriction for good. It runs in a fresh process started
// for one command, never in the server. On failure it writes why to stderr
// and returns HelperExitCode; on success it does not return.
func HelperMain(args []string, stderr io.Writer) int {
	// Landlock goes on this thread and the exec follows from it: the
	// goroutine must not move to another thread in between.
	runtime.LockOSThread()
	spec, err := parseHelperArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "juju %s: %v\n", HelperCommand, err)
		return HelperExitCode
	}
	if fd := spec.policy.AliveFD; fd > 0 {
		// juju killed while bubblewrap set the sandbox up takes bubblewrap
		// with it, but not bubblewrap's child, which asks to die with its
		// parent only later: without this check it would run the command
		// with nobody left to stop it.
		if err := serverAlive(fd); err != nil {
			fmt.Fprintf(stderr, "juju %s: the command was not run: %v\n", HelperCommand, err)
			return HelperExitCode
		}
	}
	if err := checkMounts(spec.policy); err != nil {
		fmt.Fprintf(stderr, "juju %s: the command was not run: %v\n", HelperCommand, err)
		return HelperExitCode
	}
	if spec.abi > 0 {
		if err := restrictSelf(spec.abi, spec.policy); err != nil {
			fmt.Fprintf(stderr, "juju %s: the command was not run: %v\n", HelperCommand, err)
			return HelperExitCode
		}
	}
	path, err := exec.LookPath(spec.command[0])
	if err != nil {
		fmt.Fprintf(stderr, "juju %s: %v\n", HelperCommand, err)
		return 127
	}
	err = syscall.Exec(path, spec.command, os.Environ())
	fmt.Fprintf(stderr, "juju %s: exec %s: %v\n", HelperCommand, path, err)
	return HelperExitCode
}

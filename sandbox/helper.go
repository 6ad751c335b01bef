package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// HelperArgs are the helper's flags for p under Landlock ABI abi (0: no
// Landlock): the command line after HelperCommand and before "--" and the
// command, or before --await and the descriptor the command comes on
// (see HelperMain).
//
//	juju __sandbox --abi N [--alive-fd FD] [--nproc N] [--write DIR]… [--pin PATH]… [--ro PATH]… [--net | --outer-net INODE] -- PROGRAM ARGS…
//	juju __sandbox --abi N [--alive-fd FD] [--nproc N] [--write DIR]… [--pin PATH]… [--ro PATH]… [--net | --outer-net INODE] --await FD
func HelperArgs(p Policy, abi int) []string {
	a := []string{"--abi", strconv.Itoa(abi)}
	if p.AliveFD > 0 {
		a = append(a, "--alive-fd", strconv.Itoa(p.AliveFD))
	}
	if p.Processes > 0 {
		a = append(a, "--nproc", strconv.Itoa(p.Processes))
	}
	for _, d := range p.Write {
		a = append(a, "--write", d)
	}
	for _, d := range p.pinBinds() {
		a = append(a, "--pin", d)
	}
	for _, d := range p.ReadOnly {
		a = append(a, "--ro", d)
	}
	if p.Network {
		a = append(a, "--net")
	} else if p.OuterNet != 0 {
		a = append(a, "--outer-net", strconv.FormatUint(p.OuterNet, 10))
	}
	return a
}

// helperSpec is a parsed helper command line.
type helperSpec struct {
	abi     int
	policy  Policy
	command []string
	await   int // the descriptor the command comes on (--await), or 0
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
		case "--await":
			if i+2 != len(args) {
				return s, errors.New("--await FD must end the command line")
			}
			n, err := strconv.Atoi(args[i+1])
			if err != nil || n < 3 || n == s.policy.AliveFD {
				return s, fmt.Errorf("--await %q: not a file descriptor past stderr", args[i+1])
			}
			if s.abi < 0 {
				return s, errors.New("--abi N (N ≥ 0) is required")
			}
			s.await = n
			return s, nil
		case "--outer-net":
			if i+1 >= len(args) {
				return s, fmt.Errorf("%s needs a value", a)
			}
			i++
			n, err := strconv.ParseUint(args[i], 10, 64)
			if err != nil || n == 0 {
				return s, fmt.Errorf("--outer-net %q: not a namespace's inode", args[i])
			}
			s.policy.OuterNet = n
		case "--abi", "--alive-fd", "--nproc", "--write", "--pin", "--ro":
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
			case "--ro":
				s.policy.ReadOnly = append(s.policy.ReadOnly, args[i])
				continue
			}
			n, err := strconv.Atoi(args[i])
			switch {
			case a == "--alive-fd" && (err != nil || n < 3):
				return s, fmt.Errorf("--alive-fd %q: not a file descriptor past stderr", args[i])
			case a == "--alive-fd":
				s.policy.AliveFD = n
			case a == "--nproc" && (err != nil || n < 1):
				return s, fmt.Errorf("--nproc %q: not a number of processes", args[i])
			case a == "--nproc":
				s.policy.Processes = n
			case err != nil || n < 0:
				return s, fmt.Errorf("--abi %q: not a Landlock ABI version", args[i])
			default:
				s.abi = n
			}
		default:
			return s, fmt.Errorf("unknown flag %q", a)
		}
	}
	return s, errors.New("no -- before the command, nor --await")
}

// BubblewrapFlag makes the helper, outside the sandbox, start bubblewrap
// with its seccomp filter (see Sandbox.filtered):
//
//	juju __sandbox --bubblewrap BWRAP ARGS…
//
// It execs BWRAP with --seccomp FD and ARGS, FD the read end of a pipe
// holding the filter, which bubblewrap reads and closes before it builds
// the sandbox. No "--" follows the flag: the command line after the helper
// is bubblewrap's own, read as such (bindSources).
const BubblewrapFlag = "--bubblewrap"

// HelperExitCode is the helper's exit code when it cannot confine or start
// the command (as a shell's "cannot execute").
const HelperExitCode = 126

// HelperMain is juju's hidden helper command, run by bubblewrap inside the
// sandbox it built. With --await it first waits for its command: it says
// it is ready with one byte on that socket, reads the order juju hands it
// there (see awaitOrder: the arguments, the working folder, and stdout and
// stderr as descriptors, which it puts in place of its own), and changes
// to that folder, inside the sandbox. Then, as without --await, it checks
// that juju still runs (--alive-fd: the pipe juju holds open is not at its
// end), then the binds bubblewrap made (checkMounts: each --pin path is a
// bind of itself, each --ro path that exists is read-only), then, unless
// --abi is 0, restricts its own process with Landlock (writes only in the
// --write folders and the devices, no TCP unless --net, or --outer-net
// and the command's network namespace proven another with the loopback
// alone: privateLoopback), checking that
// the kernel offers at least the Landlock ABI the server saw, sets the
// process limit (--nproc: RLIMIT_NPROC, see ProcessLimit), and then
// execs the command, which inherits both for good. It runs in
// a fresh process started for one command, never in the server. On
// failure it writes why to stderr and returns HelperExitCode; on success
// it does not return.
func HelperMain(args []string, stderr io.Writer) int {
	if len(args) > 0 && args[0] == BubblewrapFlag {
		return execBubblewrap(args[1:], stderr)
	}
	// Landlock goes on this thread and the exec follows from it: the
	// goroutine must not move to another thread in between.
	runtime.LockOSThread()
	spec, err := parseHelperArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "juju %s: %v\n", HelperCommand, err)
		return HelperExitCode
	}
	if spec.await > 0 {
		// Everything below happens after the order, never before: the
		// checks are of the sandbox as the command will find it.
		if spec.command, err = awaitOrder(spec.await); err != nil {
			if errors.Is(err, io.EOF) {
				return 0 // juju let this sandbox go unused
			}
			fmt.Fprintf(os.Stderr, "juju %s: %v\n", HelperCommand, err)
			return HelperExitCode
		}
		stderr = os.Stderr // the command's own, now
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
	// Before Landlock, which leaves /proc unwritable: the command and
	// everything it starts are the first the kernel's out-of-memory
	// killer takes. What it writes to the sandbox's tmpfs folders (/tmp,
	// /dev/shm) counts against no process, so without this the killer
	// would pick the largest process on the machine, juju or the owner's
	// own; killing the sandbox's processes ends its namespaces and frees
	// those folders. Raising one's own score needs no privilege; where
	// there is no such file (not Linux) nothing changes.
	os.WriteFile("/proc/self/oom_score_adj", []byte("1000"), 0)
	if !spec.policy.Network && spec.policy.OuterNet != 0 {
		// Landlock's TCP rules name ports, never addresses: proven alone
		// on its loopback, the namespace confines the network, and a
		// command may serve and reach 127.0.0.1 within itself.
		spec.policy.loopback = privateLoopback(spec.policy.OuterNet) == nil
	}
	if spec.abi > 0 {
		if err := restrictSelf(spec.abi, spec.policy); err != nil {
			fmt.Fprintf(stderr, "juju %s: the command was not run: %v\n", HelperCommand, err)
			return HelperExitCode
		}
	}
	if n := spec.policy.Processes; n > 0 {
		if err := limitProcesses(n); err != nil {
			fmt.Fprintf(stderr, "juju %s: the command was not run: %v\n", HelperCommand, err)
			return HelperExitCode
		}
	}
	path, err := exec.LookPath(spec.command[0])
	if errors.Is(err, exec.ErrDot) {
		// A relative folder of PATH, taken from the command's folder
		// (this one), as a shell takes it and as juju found it.
		err = nil
	}
	if err != nil {
		fmt.Fprintf(stderr, "juju %s: %v\n", HelperCommand, err)
		return NotRunCode(err)
	}
	// Last, after the look-up and just before the exec: no set-user-ID or
	// set-group-ID file (seccomp_linux.go).
	if err := refuseSetID(); err != nil {
		fmt.Fprintf(stderr, "juju %s: the command was not run: %v\n", HelperCommand, err)
		return HelperExitCode
	}
	err = syscall.Exec(path, spec.command, os.Environ())
	fmt.Fprintf(stderr, "juju %s: exec %s: %s\n", HelperCommand, path, NotRunWhy(path, err))
	return NotRunCode(err)
}

// NotRunWhy says why the exec of path failed with err. The kernel answers
// "no such file or directory" for a program that exists when what it
// names to run it does not: the interpreter of a script's #! line, or the
// loader of a program built for another system. A script saved with
// Windows line endings is the usual case, its #! line naming
// "/bin/bash\r": said as it stands, the model looked for a file that was
// there.
func NotRunWhy(path string, err error) string {
	if !errors.Is(err, fs.ErrNotExist) {
		return err.Error()
	}
	// O_NONBLOCK: a FIFO put in the program's place must not hang the
	// call (the exec of one fails with EACCES, but the file may have
	// changed since).
	f, oerr := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if oerr != nil {
		return err.Error()
	}
	defer f.Close()
	if fi, serr := f.Stat(); serr != nil || !fi.Mode().IsRegular() {
		return err.Error()
	}
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("#!")):
		line, _, _ := bytes.Cut(head[2:], []byte("\n"))
		if bytes.HasSuffix(line, []byte("\r")) {
			return fmt.Sprintf("%v: the script exists, but its #! line ends in a carriage return (Windows line endings), so the system looks for an interpreter named %q, which does not exist; convert its line endings (sed -i 's/\\r$//' FILE) and run it again", err, strings.TrimSpace(string(line[:len(line)-1]))+"\r")
		}
		return fmt.Sprintf("%v: the script exists, but the interpreter its #! line names (%s) does not; install it or correct the line", err, strings.TrimSpace(string(line)))
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return fmt.Sprintf("%v: the program exists, but the loader it names (its ELF interpreter) does not: it was built for another system or C library", err)
	}
	return err.Error()
}

// NotRunCode is the exit code of a command whose program could not be
// run for err, as a shell gives it: 127 when it, or the interpreter its
// #! line names, does not exist (or a name is not on PATH); 126 when it
// exists and cannot be run (no execute permission, a folder, a format the
// kernel does not run). A client reads the code as it would a shell's.
func NotRunCode(err error) int {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return 127
	}
	return 126
}

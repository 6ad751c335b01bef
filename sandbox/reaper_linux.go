package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// ReaperFlag makes juju-sandbox the reaper (ReaperMain) instead of the
// helper.
const ReaperFlag = "--reap"

// ReaperAttr is how juju starts the reaper: in its own session, with the
// parent-death signal SIGKILL (set by the kernel's clone before the reaper
// runs, and re-checked against a parent already gone), as the init of new
// PID and mount namespaces. When juju dies the reaper is killed, and with
// an init the kernel kills every process of its namespace: bubblewrap and
// whatever it started, wherever its setup stood. bubblewrap cannot be that
// init itself: it changes its credentials while it sets up, which clears
// a parent-death signal.
func ReaperAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL, Cloneflags: syscall.CLONE_NEWPID | syscall.CLONE_NEWNS}
}

// StandbyArgs is the command line, after its program, of a reaper started
// ahead of its command (see ReaperMain); juju hands it the command with
// HandOrder over the socket it gave it at descriptor 3.
func StandbyArgs() []string { return []string{ReaperFlag, standbyFlag} }

const standbyFlag = "--standby"

// ReaperArgs is the reaper's command line after its program for the
// program at path with argv, handing it the first keep descriptors after
// stderr.
func ReaperArgs(keep int, path string, argv []string) []string {
	return append([]string{ReaperFlag, "--keep", strconv.Itoa(keep), "--", path}, argv[1:]...)
}

// ReaperMain runs as the init of the PID namespace juju made for one
// sandbox (and refuses to run as anything else). It mounts a /proc of
// that namespace in its own mount namespace (bubblewrap finds itself in
// /proc by its pid), runs the program its arguments name as its only
// child, with its standard streams, environment and kept descriptors,
// reaps every process the namespace hands it, and returns the child's
// exit status: its code, or 128 + the signal that ended it; 127 when the
// program could not start.
//
// With --standby the reaper is started ahead of its command: it sets up,
// then waits on the socket at descriptor 3 for the order juju hands it
// (HandOrder), and runs that as it would have run its arguments. It exits
// 0 with no order when juju closes the socket.
//
//	juju-sandbox --reap --keep N -- PATH ARGS…
//	juju-sandbox --reap --standby
func ReaperMain(args []string, stderr io.Writer) int {
	standby := len(args) == 1 && args[0] == standbyFlag
	var keep int
	var argv []string
	if !standby {
		var err error
		if keep, argv, err = parseReaperArgs(args); err != nil {
			fmt.Fprintf(stderr, "juju-sandbox %s: %v\n", ReaperFlag, err)
			return 2
		}
	}
	if os.Getpid() != 1 {
		fmt.Fprintf(stderr, "juju-sandbox %s: runs only as the init of a PID namespace juju made\n", ReaperFlag)
		return 2
	}
	if err := mountProc(); err != nil {
		fmt.Fprintf(stderr, "juju-sandbox %s: %v\n", ReaperFlag, err)
		return 127
	}
	cmd := &exec.Cmd{Env: os.Environ(), Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	if standby {
		o, files, err := receiveOrder(orderFD)
		if errors.Is(err, io.EOF) {
			return 0 // juju closed the socket: no command for this reaper
		}
		if err != nil {
			if len(files) > 1 {
				stderr = files[1]
			}
			fmt.Fprintf(stderr, "juju-sandbox %s: %v\n", ReaperFlag, err)
			return 127
		}
		argv = append([]string{o.Path}, o.Args[1:]...)
		cmd.Env, cmd.Dir = o.Env, o.Dir
		cmd.Stdout, cmd.Stderr, cmd.ExtraFiles = files[0], files[1], files[2:]
		stderr = files[1]
	} else {
		for fd := 3; fd < 3+keep; fd++ {
			cmd.ExtraFiles = append(cmd.ExtraFiles, os.NewFile(uintptr(fd), "kept"))
		}
	}
	cmd.Path, cmd.Args = argv[0], argv
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "juju-sandbox %s: %v\n", ReaperFlag, err)
		return 127
	}
	child := cmd.Process.Pid
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			fmt.Fprintf(stderr, "juju-sandbox %s: %v\n", ReaperFlag, err)
			return 127
		case pid != child:
			continue // an orphan of the namespace, reaped
		case ws.Signaled():
			return 128 + int(ws.Signal())
		default:
			return ws.ExitStatus()
		}
	}
}

// mountProc mounts, in the reaper's own mount namespace, a /proc of its
// own PID namespace, its mounts first made private so that none of it
// reaches the rest of the machine.
func mountProc() error {
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the mounts private: %w", err)
	}
	if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting /proc: %w", err)
	}
	return nil
}

func parseReaperArgs(args []string) (int, []string, error) {
	keep := 0
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--":
			if i+1 >= len(args) {
				return 0, nil, errors.New("no program after --")
			}
			return keep, args[i+1:], nil
		case "--keep":
			if i+1 >= len(args) {
				return 0, nil, errors.New("--keep needs a value")
			}
			n, err := strconv.Atoi(args[i+1])
			if err != nil || n < 0 || n > 16 {
				return 0, nil, fmt.Errorf("--keep %q: a number of descriptors from 0 to 16", args[i+1])
			}
			keep = n
			i++
		default:
			return 0, nil, fmt.Errorf("unknown argument %q (usage: juju-sandbox %s --keep N -- PATH ARGS...)", args[i], ReaperFlag)
		}
	}
	return 0, nil, errors.New("no -- and program")
}

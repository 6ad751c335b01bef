//go:build linux && amd64

// Command ptracechmod is a helper of juju's end-to-end tests, an attack a
// confined command can make: it attaches to another process of the
// sandbox (by default PID 1, bubblewrap's init, which runs none of the
// helper's seccomp filter) and makes it call chmod(PATH, 04755) in its
// place, at the system call instruction the process sleeps in. It prints
// what the call returned, or why it could not be made.
//
//	ptracechmod PATH [PID]
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Println("usage: ptracechmod PATH [PID]")
		os.Exit(2)
	}
	pid := 1
	if len(os.Args) > 2 {
		pid, _ = strconv.Atoi(os.Args[2])
	}
	path, _ := filepath.Abs(os.Args[1])
	if err := run(pid, path); err != nil {
		fmt.Println("refused:", err)
		return
	}
}

func run(pid int, path string) error {
	if err := syscall.PtraceAttach(pid); err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	defer syscall.PtraceDetach(pid)
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, unix.WALL, nil); err != nil {
		return fmt.Errorf("wait: %w", err)
	}
	var saved syscall.PtraceRegs
	if err := syscall.PtraceGetRegs(pid, &saved); err != nil {
		return fmt.Errorf("getregs: %w", err)
	}
	defer syscall.PtraceSetRegs(pid, &saved)
	insn := make([]byte, 2)
	if _, err := syscall.PtracePeekText(pid, uintptr(saved.Rip-2), insn); err != nil {
		return fmt.Errorf("peek: %w", err)
	}
	if insn[0] != 0x0f || insn[1] != 0x05 {
		return fmt.Errorf("the process does not sleep in a system call (%x)", insn)
	}
	addr := uintptr((saved.Rsp - 4096) &^ 0xf)
	if _, err := syscall.PtracePokeData(pid, addr, append([]byte(path), 0)); err != nil {
		return fmt.Errorf("poke: %w", err)
	}
	r := saved
	r.Rip, r.Rax, r.Orig_rax = saved.Rip-2, unix.SYS_CHMOD, ^uint64(0)
	r.Rdi, r.Rsi = uint64(addr), 0o4755
	if err := syscall.PtraceSetRegs(pid, &r); err != nil {
		return fmt.Errorf("setregs: %w", err)
	}
	if err := syscall.PtraceSingleStep(pid); err != nil {
		return fmt.Errorf("step: %w", err)
	}
	if _, err := syscall.Wait4(pid, &ws, unix.WALL, nil); err != nil {
		return fmt.Errorf("wait: %w", err)
	}
	var res syscall.PtraceRegs
	if err := syscall.PtraceGetRegs(pid, &res); err != nil {
		return fmt.Errorf("getregs: %w", err)
	}
	fmt.Printf("chmod in pid %d: %d\n", pid, int64(res.Rax))
	return nil
}

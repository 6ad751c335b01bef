package proc

import (
	"bytes"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Subreap makes this process the child subreaper of everything it starts
// from now on (PR_SET_CHILD_SUBREAPER): a process whose parent dies is
// handed to it rather than to init, so a command's descendants that left
// its tree by a double fork or by outliving it (`(setsid x &)`, `setsid x
// &` then exit) stay within reach (Adopted) and are killed with their job.
// It returns whether this process is one.
//
// A subreaper must reap the orphans it is handed, and must not reap the
// children os/exec waits for (their Wait would fail). Subreap starts a
// goroutine that, on each SIGCHLD, reaps by pid each ended child that no
// pidfd of this process refers to: os/exec holds a pidfd for each child it
// started from the clone that made it until its Wait has reaped it (Go
// 1.23 on, where the kernel gives pidfds; TestExecHoldsAPidfdUntilWait
// checks it), so a child without one is an orphan. Nothing here waits for
// any child (-1). Where the kernel gives no pidfds (before Linux 5.4), a
// child of os/exec cannot be told from an orphan, and Subreap does
// nothing.
func Subreap() bool {
	subreapOnce.Do(func() {
		if !pidfdsWork() {
			return
		}
		if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
			return
		}
		subreaping = true
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGCHLD)
		go func() {
			// SIGCHLD, and a sweep every reapEvery as well: under load
			// some orphans' ends were seen with no reap after them (14 to
			// 15 zombies of 40 orphans in one of three runs of the exec
			// tests), so no zombie outlives the sweep.
			t := time.NewTicker(reapEvery)
			defer t.Stop()
			for {
				select {
				case <-ch:
				case <-t.C:
				}
				ReapOrphans()
			}
		}()
	})
	return subreaping
}

// reapEvery is how often the orphans are swept besides SIGCHLD: a read
// of each thread's children file, some 100 µs, once a second.
const reapEvery = time.Second

var (
	subreapOnce sync.Once
	subreaping  bool
)

// pidfdsWork reports whether the kernel gives the pidfds os/exec uses (as
// os.checkPidfd checks): pidfd_open, and waitid on a pidfd.
func pidfdsWork() bool {
	fd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	var info unix.Siginfo
	err = unix.Waitid(unix.P_PIDFD, fd, &info, unix.WEXITED|unix.WNOHANG, nil)
	return err == unix.ECHILD
}

// ownChildren lists this process's children as its main thread holds
// them: the orphans a subreaper is handed go to its first live thread
// (the kernel's find_new_reaper), the main one, which a Go program never
// ends.
func ownChildren() []int {
	b, err := os.ReadFile("/proc/self/task/" + strconv.Itoa(os.Getpid()) + "/children")
	if err != nil {
		return nil
	}
	return appendPids(nil, b)
}

// Adopted lists the orphans this process was handed (Subreap) whose
// environment holds entry (NAME=VALUE), found among its children; a
// process that cleared or overwrote its environment is not found.
func Adopted(entry string) []int {
	if !subreaping {
		return nil
	}
	want := []byte(entry)
	var out []int
	for _, c := range ownChildren() {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(c) + "/environ")
		if err != nil {
			continue
		}
		for e := range bytes.SplitSeq(b, []byte{0}) {
			if bytes.Equal(e, want) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// ReapOrphans reaps, by pid, this process's ended children that no pidfd
// of it refers to: the orphans it was handed as a subreaper. It looks at
// the children of every thread, not only the main one's, so that the
// pidfd check, not where the kernel puts orphans, is what keeps it from
// os/exec's children. It asks wait4 with WNOHANG of each such child
// rather than reading its state: the kernel sends SIGCHLD before /proc
// shows the child as a zombie, so a state read just after the signal can
// miss it for good, where wait4 takes the lock the exit holds and sees it
// ended. A child still running is left as it is; one os/exec has just
// started cannot have ended before its pidfd is installed.
func ReapOrphans() {
	kids := Children(os.Getpid())
	if len(kids) == 0 {
		return
	}
	held := pidfdPids()
	for _, c := range kids {
		if held[c] {
			continue // os/exec's: its Wait reaps it
		}
		var ws syscall.WaitStatus
		syscall.Wait4(c, &ws, syscall.WNOHANG, nil)
	}
}

// pidfdPids returns the pids this process holds a pidfd for, read from
// /proc/self/fdinfo (a pidfd's has a "Pid:" line, no other kind of file's
// does).
func pidfdPids() map[int]bool {
	held := map[int]bool{}
	fds, err := os.ReadDir("/proc/self/fdinfo")
	if err != nil {
		return held
	}
	for _, fd := range fds {
		b, err := os.ReadFile("/proc/self/fdinfo/" + fd.Name())
		if err != nil {
			continue
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Pid:"); ok {
				if pid, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
					held[pid] = true
				}
				break
			}
		}
	}
	return held
}

package proc

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// maxTree bounds the processes StopTree collects (a fork bomb's tree is
// stopped as far as it is found, and its group killed).
const maxTree = 4096

// A Proc is one process: its pid and its start time, which tell it from a
// later process given the same pid.
type Proc struct {
	Pid   int
	Start uint64 // clock ticks after boot, from /proc/PID/stat
}

// A Tree is the processes StopTree found, stopped, with the groups of its
// roots.
type Tree struct {
	Roots []int // their groups are signalled too
	Procs []Proc
}

// KillTree kills the process group led by pid and every descendant of
// pid, also those that left the group (a new session, bubblewrap's
// sandbox, a PID namespace's init): StopTree, then SIGKILL. It must be
// called while pid is alive and not yet reaped: a process whose parent
// died was handed to another and is out of reach (unless the one it was
// handed to is a root, see Subreap and Adopted).
func KillTree(pid int) { StopTree(pid).Kill() }

// StopTree stops the process group of each root and each root, then walks
// the tree from them stopping each process it finds (a stopped process
// cannot fork, so none escapes the walk by being born after it), and
// returns what it found, still stopped. A Proc of the Tree is signalled
// only while its pid still has its start time, so a pid reused by another
// process is never touched.
func StopTree(roots ...int) Tree {
	t := Tree{Roots: roots}
	seen := map[int]bool{}
	var queue []int
	for _, r := range roots {
		syscall.Kill(-r, syscall.SIGSTOP)
		if !seen[r] {
			seen[r] = true
			if p, ok := stop(r); ok {
				t.Procs = append(t.Procs, p)
			}
			queue = append(queue, r)
		}
	}
	for ; len(queue) > 0 && len(t.Procs) < maxTree; queue = queue[1:] {
		for _, c := range Children(queue[0]) {
			if !seen[c] {
				seen[c] = true
				if p, ok := stop(c); ok {
					t.Procs = append(t.Procs, p)
				}
				queue = append(queue, c)
			}
		}
	}
	return t
}

// stop stops pid and returns it with its start time.
func stop(pid int) (Proc, bool) {
	start, _, ok := statOf(pid)
	if !ok {
		return Proc{}, false
	}
	syscall.Kill(pid, syscall.SIGSTOP)
	return Proc{pid, start}, true
}

// Signal sends sig to every process of t that is still the one found, and
// to the groups of its roots.
func (t Tree) Signal(sig syscall.Signal) {
	for _, p := range t.Procs {
		p.signal(sig)
	}
	for _, r := range t.Roots {
		syscall.Kill(-r, sig)
	}
}

// Kill kills t: its groups, and every process of it that is still the one
// found.
func (t Tree) Kill() { t.Signal(syscall.SIGKILL) }

// Running returns the pids of t's processes that still run (not ended, nor
// ended and waiting for their parent to reap them).
func (t Tree) Running() []int {
	var out []int
	for _, p := range t.Procs {
		if start, state, ok := statOf(p.Pid); ok && start == p.Start && state != 'Z' && state != 'X' {
			out = append(out, p.Pid)
		}
	}
	return out
}

func (p Proc) signal(sig syscall.Signal) {
	if start, _, ok := statOf(p.Pid); ok && start == p.Start {
		syscall.Kill(p.Pid, sig)
	}
}

// Children lists the children of pid: from /proc/PID/task/*/children,
// or, on a kernel without that file, by reading every process's parent.
func Children(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if os.IsNotExist(err) {
			return childrenByParent(pid)
		}
		out = appendPids(out, b)
	}
	return out
}

func appendPids(out []int, b []byte) []int {
	for _, f := range strings.Fields(string(b)) {
		if c, err := strconv.Atoi(f); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// childrenByParent finds pid's children in every /proc/N/stat.
func childrenByParent(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		c, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(c); ok && ppid == pid {
			out = append(out, c)
		}
	}
	return out
}

// statFields reads the fields of /proc/PID/stat after the command name
// (which may hold spaces and parentheses): the state is the first.
func statFields(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(s[i+1:])
}

// parentOf reads a process's parent from /proc/PID/stat.
func parentOf(pid int) (int, bool) {
	f := statFields(pid)
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// statOf reads a process's start time and state from /proc/PID/stat
// (starttime is the stat file's 22nd field, the 20th after the name).
func statOf(pid int) (start uint64, state byte, ok bool) {
	f := statFields(pid)
	if len(f) < 20 || f[0] == "" {
		return 0, 0, false
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	return start, f[0][0], err == nil
}

// Continue lets t's stopped processes run again (to handle a signal sent
// them while stopped).
func (t Tree) Continue() { t.Signal(syscall.SIGCONT) }

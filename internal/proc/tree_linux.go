package proc

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// maxTree bounds the processes KillTree collects (a fork bomb's tree is
// stopped as far as it is found, and its group killed).
const maxTree = 4096

// KillTree kills the process group led by pid and every descendant of
// pid, also those that left the group (a new session, bubblewrap's
// sandbox, a PID namespace's init): it stops the group, then walks the
// tree from pid stopping each process it finds (a stopped process cannot
// fork, so none escapes the walk by being born after it), then kills them
// all. It must be called while pid is alive and not yet reaped: a process
// whose parent died was handed to another and is out of reach.
func KillTree(pid int) {
	syscall.Kill(-pid, syscall.SIGSTOP)
	syscall.Kill(pid, syscall.SIGSTOP)
	found := []int{}
	seen := map[int]bool{pid: true}
	for queue := []int{pid}; len(queue) > 0 && len(found) < maxTree; queue = queue[1:] {
		for _, c := range Children(queue[0]) {
			if !seen[c] {
				seen[c] = true
				syscall.Kill(c, syscall.SIGSTOP)
				found = append(found, c)
				queue = append(queue, c)
			}
		}
	}
	for _, c := range found {
		syscall.Kill(c, syscall.SIGKILL)
	}
	syscall.Kill(-pid, syscall.SIGKILL)
	syscall.Kill(pid, syscall.SIGKILL)
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
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
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

// parentOf reads a process's parent from /proc/PID/stat (the field after
// the command name, which may hold spaces and parentheses).
func parentOf(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

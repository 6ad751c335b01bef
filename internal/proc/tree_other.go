//go:build !linux

package proc

// KillTree kills the process group led by pid (descendants that left the
// group are not found here).
func KillTree(pid int) { KillGroup(pid) }

// Children is not known here.
func Children(int) []int { return nil }

//go:build !linux

package proc

import "syscall"

// A Tree is the process groups of its roots (descendants that left them
// are not found here).
type Tree struct{ Roots []int }

// KillTree kills the process group led by pid.
func KillTree(pid int) { KillGroup(pid) }

// StopTree finds the groups of roots; nothing is stopped here.
func StopTree(roots ...int) Tree { return Tree{Roots: roots} }

// Signal sends sig to the groups of t's roots.
func (t Tree) Signal(sig syscall.Signal) {
	for _, r := range t.Roots {
		Signal(r, sig)
	}
}

// Kill kills the groups of t's roots.
func (t Tree) Kill() { t.Signal(syscall.SIGKILL) }

// Running is not known here: none.
func (t Tree) Running() []int { return nil }

// Children is not known here.
func Children(int) []int { return nil }

// Continue does nothing here: nothing was stopped.
func (t Tree) Continue() {}

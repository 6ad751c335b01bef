//go:build !unix

package sandbox

// Interrupt reports false: there is no bubblewrap here.
func Interrupt(int) bool { return false }

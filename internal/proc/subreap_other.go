//go:build !linux

package proc

// Subreap does nothing here: only Linux hands orphans to a subreaper.
func Subreap() bool { return false }

// Adopted finds nothing here.
func Adopted(string) []int { return nil }

// ReapOrphans has nothing to reap here.
func ReapOrphans() {}

//go:build unix && !linux

package proc

// closeRangeOnExec cannot here: no close_range.
func closeRangeOnExec() bool { return false }

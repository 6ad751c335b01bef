//go:build !linux

package sandbox

// ProcessLimit is 0 here: only Linux's sandbox bounds a command's
// processes.
func ProcessLimit() int { return 0 }

func limitProcesses(int) error { return nil }

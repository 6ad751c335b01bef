//go:build !unix

package main

import "os"

// openLogFile opens the log file for appending, creating it with mode
// 0600.
func openLogFile(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
}

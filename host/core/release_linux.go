package core

import (
	"os"
	"syscall"
)

// release drops the whole pages of b from the process's resident set. b is
// part of a private, read-only file mapping: its pages are discarded, and a
// later read faults them in again from the file.
func release(b []byte) {
	if b = pagesWithin(b, os.Getpagesize()); len(b) > 0 {
		_ = syscall.Madvise(b, syscall.MADV_DONTNEED) // advice only: failing it costs memory, nothing else
	}
}

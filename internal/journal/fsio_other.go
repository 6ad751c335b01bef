//go:build !unix

package journal

import "os"

const syscallNonblock = 0

func datasync(f *os.File) error { return f.Sync() }

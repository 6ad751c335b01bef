//go:build !linux && !darwin && !windows

package journal

import "os"

// datasync flushes a file's data and metadata (fsync).
func datasync(f *os.File) error { return f.Sync() }

// syncDirFile makes a folder's entries durable.
func syncDirFile(d *os.File) error { return d.Sync() }

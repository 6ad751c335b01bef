package journal

import "os"

// datasync flushes a file's data (FlushFileBuffers).
func datasync(f *os.File) error { return f.Sync() }

// syncDirFile is a no-op on Windows: a folder is opened read-only there and
// FlushFileBuffers on it fails with "access denied"; NTFS journals its own
// metadata, so the rename that placed a file is not lost the way an
// unsynced directory entry can be on a Unix file system.
func syncDirFile(*os.File) error { return nil }

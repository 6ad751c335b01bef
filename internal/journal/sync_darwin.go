package journal

import "os"

// datasync flushes a file's data to stable storage. On macOS a plain fsync
// only hands the data to the drive, whose cache may still lose it on power
// loss; durability needs fcntl(F_FULLFSYNC), as bbolt and SQLite use. Go's
// (*os.File).Sync is exactly that on darwin (falling back to fsync where the
// file system does not support it, such as SMB), so it is used as is.
func datasync(f *os.File) error { return f.Sync() }

// syncDirFile makes a folder's entries (a rename into it) durable, with the
// same F_FULLFSYNC.
func syncDirFile(d *os.File) error { return d.Sync() }

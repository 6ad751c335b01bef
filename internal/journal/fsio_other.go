//go:build !unix

package journal

import (
	"io/fs"
	"os"
)

const syscallNonblock = 0

// startUmask is 022 where there is no umask: files 0644, folders 0755.
const startUmask fs.FileMode = 0o22

// keepOwner does nothing here: files take their folder's owner and ACLs.
func keepOwner(dir *os.Root, name string, f *os.File) bool { return false }

// fileID is unknown here.
func fileID(fi fs.FileInfo) [2]uint64 { return [2]uint64{} }

// otherLinks is 0 here: juju does not count a file's hard links off unix.
func otherLinks(fi fs.FileInfo) int { return 0 }

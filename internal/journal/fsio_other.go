//go:build !unix

package journal

import "os"

const syscallNonblock = 0

// keepOwner does nothing here: files take their folder's owner and ACLs.
func keepOwner(dir *os.Root, name string, f *os.File) bool { return false }

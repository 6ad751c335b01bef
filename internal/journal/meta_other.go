//go:build !linux

package journal

import (
	"io/fs"
	"os"
)

// meta is empty where juju keeps no owner or extended attributes in its
// records: a replaced file takes those of the file it replaces (keepOwner).
type meta struct{}

func fileMeta(f *os.File, fi fs.FileInfo) *meta { return nil }

func applyMeta(dir *os.Root, name string, f *os.File, m *meta) bool {
	return keepOwner(dir, name, f)
}

// createMode is base less the umask juju started with.
func createMode(root *os.Root, dir string, base fs.FileMode) fs.FileMode {
	return base &^ startUmask
}

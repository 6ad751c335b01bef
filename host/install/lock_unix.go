//go:build unix

package install

import (
	"os"
	"path/filepath"
	"syscall"
)

// lock takes the data directory's lifecycle lock, so that two juju plugins
// commands never interleave (two grants losing one, an install checking
// collisions while another lands). It waits for the holder to finish.
func lock(data string) (func(), error) {
	if err := os.MkdirAll(data, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(data, lockFile), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

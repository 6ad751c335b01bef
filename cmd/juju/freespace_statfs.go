//go:build linux || darwin

package main

import "syscall"

// freeSpace is how many bytes an unprivileged user may still write on the
// file system of path.
func freeSpace(path string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

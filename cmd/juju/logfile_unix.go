//go:build unix

package main

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openLogFile opens the log file for appending, creating it with mode
// 0600. --log-file often names a shared folder (/tmp), where another user
// could plant a symbolic link to the owner's ~/.bashrc, or a file of their
// own: juju appended its log through the link, and a log line quotes what
// a request chose (a refused X-Forwarded-Host "$(…)"), which the owner's
// next shell ran; a file of theirs they could read. So a link is followed
// only when the owner or root made it (no other user can replace one of
// those in a sticky folder), and the file must be a regular file of the
// owner's, or a device (/dev/null), which no user can plant.
func openLogFile(name string) (*os.File, error) {
	const flags = os.O_APPEND | os.O_CREATE | os.O_WRONLY
	f, err := os.OpenFile(name, flags|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		// ELOOP, or EACCES for another user's link in a sticky folder.
		st, lerr := os.Lstat(name)
		if lerr != nil || st.Mode()&fs.ModeSymlink == 0 {
			return nil, err
		}
		if uid := owner(st); uid != os.Geteuid() && uid != 0 {
			return nil, fmt.Errorf("%s is a symbolic link another user made; name a file of your own", name)
		}
		if f, err = os.OpenFile(name, flags, 0o600); err != nil {
			return nil, err
		}
	}
	if err := ours(f, name); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ours reports why the open file f, named name, may not take the log, or
// nil.
func ours(f *os.File, name string) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	switch {
	case st.Mode()&fs.ModeCharDevice != 0:
		return nil
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file", name)
	case owner(st) != os.Geteuid():
		return fmt.Errorf("%s belongs to another user, who could read the log; name a file of your own", name)
	}
	return nil
}

// owner is the user id owning the file of st, or -1 when unknown.
func owner(st fs.FileInfo) int {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Uid)
	}
	return -1
}

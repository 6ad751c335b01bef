//go:build unix

package token

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUs reports whether the file of st belongs to the user juju runs
// as. Another user owns what they can change at will: a token file they
// planted where the owner pointed --token-file (a shared folder such as
// /tmp), readable by juju run as root, would hold a token they chose.
func ownedByUs(st fs.FileInfo) bool {
	s, ok := st.Sys().(*syscall.Stat_t)
	return !ok || int(s.Uid) == os.Geteuid()
}

//go:build linux && (arm64 || riscv64 || loong64)

package policy

import "syscall"

func fstatat(dirfd int, name string, st *syscall.Stat_t, flags int) error {
	return syscall.Fstatat(dirfd, name, st, flags)
}

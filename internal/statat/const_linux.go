//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package statat

// atSymlinkNofollow is AT_SYMLINK_NOFOLLOW, which syscall does not name.
const atSymlinkNofollow = 0x100

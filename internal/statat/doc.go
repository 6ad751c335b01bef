// Package statat describes a name inside an open folder without following
// a final symlink (fstatat with AT_SYMLINK_NOFOLLOW), on the platforms
// where juju's listing and its path policy walk folders by descriptor
// (Linux on amd64, arm64, riscv64 and loong64). The policy's resolution
// and the listing's walk both stat through it, so the one raw system call
// is written once.
package statat

//go:build !(linux && (amd64 || arm64 || riscv64 || loong64))

package policy

import "io/fs"

// ResolveRegular is Resolve and OpenRead in one where the kernel offers
// openat2 (see regular_linux.go); elsewhere ok is always false, and the
// caller calls Resolve and OpenRead.
func (p *Policy) ResolveRegular(string) (*Resolved, Reader, fs.FileInfo, bool) {
	return nil, nil, nil, false
}

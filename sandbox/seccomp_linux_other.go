//go:build linux && !amd64 && !arm64

package sandbox

// On other architectures the filter is not installed: no table of their
// system calls is kept.
const (
	nativeArch = 0
	hasX32     = false
)

var (
	modeArgs     map[uintptr]int
	refusedCalls []uintptr
)

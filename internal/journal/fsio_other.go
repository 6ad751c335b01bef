//go:build !unix

package journal

const syscallNonblock = 0

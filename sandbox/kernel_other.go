//go:build !unix

package sandbox

// KernelRelease is "" where juju does not read it.
func KernelRelease() string { return "" }

//go:build !unix

package oauth

// lockFile is a no-op where flock is not available: a revoke racing the
// server's own update may then be lost, and must be repeated.
func lockFile(string) (func(), error) { return func() {}, nil }

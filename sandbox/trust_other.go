//go:build !unix

package sandbox

// trustedLike trusts no standalone helper where there is no bubblewrap.
func trustedLike(string, string) bool { return false }

package juju

import "encoding/hex"

// Fence returns a fresh random word (16 hex digits) for the lines a tool
// writes around text it did not write, a repository's file or a page: the
// text was made before the word was drawn, so it cannot end its fence
// early and write what reads as the tool's own lines after it, however
// near its imitation comes (another case, a tab, a missing space).
//
// The bytes come from the system's source of randomness (randomBytes:
// WASI's random_get in a plugin, which juju serves from crypto/rand).
func Fence() string {
	var b [8]byte
	randomBytes(b[:])
	return hex.EncodeToString(b[:])
}

package plugin

import "crypto/rand"

// randReader gives guests real randomness (Go's runtime seeds its maps and
// hashes from it).
type randReader struct{}

func (randReader) Read(b []byte) (int, error) { return rand.Read(b) }

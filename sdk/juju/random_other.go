//go:build !wasip1

package juju

import "crypto/rand"

// randomBytes fills b from crypto/rand, built natively for the package's
// own tests.
func randomBytes(b []byte) { rand.Read(b) }

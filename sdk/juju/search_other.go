//go:build !wasip1

package juju

// Natively, the search and environment host functions go through the
// test host like every other.
var (
	exchangeSearch      = exchange
	exchangeEnvironment = exchange
)

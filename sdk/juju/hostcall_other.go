//go:build !wasip1

package juju

// testHost stands in for juju's host functions when the package is built
// natively, for its own tests; nil means there is no host.
var testHost func(fn string, frame []byte) []byte

func exchange(fn string, frame []byte) ([]byte, error) {
	if testHost == nil {
		return nil, errNoHost
	}
	return testHost(fn, frame), nil
}

// exchangeVia is exchange: natively there are no imports.
func exchangeVia(_ func(uint64) uint64, fn string, frame []byte) ([]byte, error) {
	return exchange(fn, frame)
}

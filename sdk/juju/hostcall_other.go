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

func exchangeGit(fn string, frame []byte) ([]byte, error) { return exchange(fn, frame) }

func exchangeDiscoverTasks(fn string, frame []byte) ([]byte, error) { return exchange(fn, frame) }

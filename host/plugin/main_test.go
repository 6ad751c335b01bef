package plugin_test

import (
	"fmt"
	"os"
	"testing"
)

// sharedCache is a compilation cache the tests that only need one share,
// so that each test plugin compiles once (a compilation takes seconds
// under the race detector).
var sharedCache string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "juju-plugin-tests-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sharedCache = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

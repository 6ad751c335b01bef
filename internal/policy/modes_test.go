package policy

import "testing"

// bothModes runs test with the openat2 fast paths and, where they exist,
// with the portable walk alone.
func bothModes(t *testing.T, test func(t *testing.T)) {
	t.Run("fast", test)
	t.Run("walk", func(t *testing.T) {
		withoutOpenat2(t)
		test(t)
	})
}

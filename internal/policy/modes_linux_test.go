package policy

import "testing"

// withoutOpenat2 makes the policy behave as on a kernel without openat2
// until the test ends.
func withoutOpenat2(t testing.TB) {
	old := openat2Works.Load()
	openat2Works.Store(2)
	t.Cleanup(func() { openat2Works.Store(old) })
}

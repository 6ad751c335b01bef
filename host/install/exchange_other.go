//go:build !linux

package install

// exchange has no one-step swap on this system: swapIn moves the old
// folder aside first, and sweep puts it back if juju dies in between.
func exchange(a, b string) error { return errNoExchange }

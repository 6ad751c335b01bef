//go:build !linux

package sandbox

// restrictSelf fails where there is no Landlock.
func restrictSelf(int, Policy) error {
	_, err := LandlockABI()
	return err
}

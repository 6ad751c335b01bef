package plugin

// LiftMemoryLimit lifts juju's soft Go memory limit until the returned
// function is called, as compilations do, sharing their count so that
// whichever finishes last puts the limit back. Other heavy, short work of
// the host (converting a fetched page to Markdown) uses it for the same
// reason: under the limit the collector runs almost continuously.
func LiftMemoryLimit() (restore func()) { return liftMemoryLimit() }

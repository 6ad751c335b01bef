package plugin

import "golang.org/x/sys/unix"

// mapNoReserve keeps a linear memory's reservation from counting against
// the system's commit limit before it is touched.
const mapNoReserve = unix.MAP_NORESERVE

//go:build !race

package fetch

// raceSlowdown is 1: the race detector is off.
const raceSlowdown = 1

package host

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"sync/atomic"
	"time"
)

// lastMicros is the time part of the last call id; ids made in the same
// microsecond take the next one, so ids from one process never repeat and
// sort in the order they were made.
var lastMicros atomic.Int64

// newCallID returns a short, unique, sortable id for a tool call: the
// microseconds since 1970 in base 36 (11 characters until the year 4000),
// then 4 random hex digits that keep two processes apart.
func newCallID() string {
	now := time.Now().UnixMicro()
	for {
		last := lastMicros.Load()
		if now <= last {
			now = last + 1
		}
		if lastMicros.CompareAndSwap(last, now) {
			break
		}
	}
	var r [2]byte
	rand.Read(r[:])
	t := strconv.FormatInt(now, 36)
	for len(t) < 11 {
		t = "0" + t
	}
	return t + hex.EncodeToString(r[:])
}

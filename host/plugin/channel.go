package plugin

import (
	"encoding/binary"
	"errors"
	"io"

	"github.com/jujutools/juju/sdk/abi"
)

// A channel is one instance's WASI stdin and stdout, the bulk path of ABI 2
// (docs/ABI.md, "The channel"). What the guest writes to stdout is pending
// until a host function call takes it as its request frame (the last n
// bytes the guest announces), or juju_output takes it as the call's output;
// what the host stages is what the guest's next reads of stdin return. A
// guest read or write is one copy between the guest's linear memory and the
// host's buffer, done by wazero's fd_read and fd_write.
//
// A channel belongs to one instance and serves one call at a time: the pool
// hands an instance to one call, and reset empties both sides before and
// after each call, so nothing staged for one call is seen by another. It is
// used only on the goroutine running the call (wazero runs WASI functions
// and host functions on the caller's goroutine), so it takes no lock.
type channel struct {
	// staged is what stdin returns next: up to three parts (a length, a
	// header, a body), read in order without joining them.
	staged [3][]byte
	prefix [4]byte
	// pending is what the guest wrote since it was last taken.
	pending []byte
	// limit bounds pending, its spare capacity included, and held: a guest
	// that writes more without a host call to take it gets an error, and
	// what it wrote is dropped. It is the instance's memory cap, in bytes,
	// of which inUse, when set, tells what the guest's linear memories
	// hold now; and never more than maxPending.
	limit int
	inUse func() int
	// held is the call's output, taken by juju_output and kept until the
	// call ends.
	held int
}

// maxPending bounds what a guest may have pending at once: the largest
// frame the host takes (abi.MaxFrame), a header of abi.MaxHeader and a
// body of a journal change's new contents or a result's spans, 64 MiB. Pending bytes live in the host's heap, beside the instance's
// memory: bounded by the memory cap alone, one instance writing one
// buffer 255 times took the host from 100 MB to 764 MB, and an instance
// of 1 GiB could hold 2 GiB.
const maxPending = abi.MaxFrame

// errFlood is what a guest's stdout write gets past the channel's limit
// (EIO in the guest).
var errFlood = errors.New("plugin: the channel's pending bytes are over the limit")

// keepBytes is the largest buffer a channel keeps between calls: an idle
// instance does not hold on to a large answer's memory.
const keepBytes = 64 << 10

func newChannel(limit int) *channel { return &channel{limit: limit} }

// Read implements io.Reader for the guest's stdin: the staged parts in
// order, then EOF.
func (c *channel) Read(p []byte) (int, error) {
	n := 0
	for i := range c.staged {
		if len(p) == 0 {
			break
		}
		k := copy(p, c.staged[i])
		c.staged[i] = c.staged[i][k:]
		p = p[k:]
		n += k
	}
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

// Write implements io.Writer for the guest's stdout: p (the guest's memory,
// valid only during the call) is appended to the pending bytes. The buffer
// grows by doubling, within the room left: its spare capacity is the
// host's memory as much as its bytes are.
func (c *channel) Write(p []byte) (int, error) {
	room := c.room()
	need := len(c.pending) + len(p)
	if need > room {
		c.pending = nil
		return 0, errFlood
	}
	if need > cap(c.pending) {
		// Most writes are one whole frame: the first is allocated exactly.
		grown := make([]byte, len(c.pending), min(room, max(need, 2*cap(c.pending), 512)))
		copy(grown, c.pending)
		c.pending = grown
	}
	c.pending = append(c.pending, p...)
	return len(p), nil
}

// room is how many bytes pending may take: maxPending, and what the
// instance's memory cap leaves beside its linear memories and the output
// held.
func (c *channel) room() int {
	room := min(c.limit, maxPending)
	if c.inUse != nil {
		room = min(room, c.limit-c.inUse())
	}
	return room - c.held
}

// errAnnounced reports a take whose length is not what the guest wrote.
var errAnnounced = errors.New("the bytes written are fewer than announced")

// take returns the last n pending bytes and empties pending. The returned
// slice is the caller's to keep: the next write starts a new buffer. Bytes
// written before those n (a plugin's own prints to stdout) are dropped.
func (c *channel) take(n uint64) ([]byte, error) {
	p := c.pending
	c.pending = nil
	if n > uint64(len(p)) {
		return nil, errAnnounced
	}
	return p[uint64(len(p))-n:], nil
}

// stage makes a frame of header and body what stdin returns next (dropping
// whatever was staged before) and returns the frame's length. header and
// body are read, never written.
func (c *channel) stage(header, body []byte) uint64 {
	binary.LittleEndian.PutUint32(c.prefix[:], uint32(len(header)))
	c.staged = [3][]byte{c.prefix[:], header, body}
	return uint64(4 + len(header) + len(body))
}

// stageInput makes a call's input what stdin returns next: its length as a
// little-endian u32, then the bytes.
func (c *channel) stageInput(input []byte) {
	binary.LittleEndian.PutUint32(c.prefix[:], uint32(len(input)))
	c.staged = [3][]byte{c.prefix[:], input, nil}
}

// takeOutput is take for the call's output (juju_output), which stays in
// the host's memory until the call ends: the whole buffer it is in counts
// against the channel's limit until reset.
func (c *channel) takeOutput(n uint64) ([]byte, error) {
	whole := cap(c.pending)
	out, err := c.take(n)
	c.held = 0
	if err == nil {
		c.held = whole
	}
	return out, err
}

// reset empties both sides, and lets go of a large pending buffer.
func (c *channel) reset() {
	c.staged = [3][]byte{}
	c.held = 0
	if cap(c.pending) > keepBytes {
		c.pending = nil
	}
	c.pending = c.pending[:0]
}

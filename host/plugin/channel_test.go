package plugin

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// readAll drains what the guest would read from stdin, in reads of size n.
func readAll(c *channel, n int) []byte {
	var out []byte
	buf := make([]byte, n)
	for {
		k, err := c.Read(buf)
		out = append(out, buf[:k]...)
		if err == io.EOF {
			return out
		}
	}
}

func TestChannelStageAndRead(t *testing.T) {
	c := newChannel(1 << 20)
	n := c.stage([]byte(`{"a":1}`), []byte("body"))
	want := abi.EncodeFrame([]byte(`{"a":1}`), []byte("body"))
	if n != uint64(len(want)) {
		t.Fatalf("length %d, want %d", n, len(want))
	}
	for _, size := range []int{1, 3, 4, 5, 64} {
		c.stage([]byte(`{"a":1}`), []byte("body"))
		if got := readAll(c, size); !bytes.Equal(got, want) {
			t.Fatalf("reads of %d: %q", size, got)
		}
	}
	// A new stage drops the unread rest of the last one.
	c.stage([]byte("old"), nil)
	c.stage([]byte("new"), nil)
	if got := readAll(c, 64); !bytes.Equal(got, abi.EncodeFrame([]byte("new"), nil)) {
		t.Fatalf("restaged: %q", got)
	}
	c.stageInput([]byte("input"))
	got := readAll(c, 2)
	if binary.LittleEndian.Uint32(got) != 5 || string(got[4:]) != "input" {
		t.Fatalf("input: %q", got)
	}
}

func TestChannelTake(t *testing.T) {
	c := newChannel(16)
	c.Write([]byte("noise"))
	c.Write([]byte("frame"))
	got, err := c.take(5)
	if err != nil || string(got) != "frame" {
		t.Fatalf("take: %q %v", got, err)
	}
	// What was taken is the caller's: later writes never touch it.
	c.Write([]byte("XXXXX"))
	if string(got) != "frame" {
		t.Fatalf("a taken request changed: %q", got)
	}
	if _, err := c.take(6); !errors.Is(err, errAnnounced) {
		t.Fatalf("take beyond what was written: %v", err)
	}
	// Past the limit a write fails and everything pending is dropped.
	if _, err := c.Write(make([]byte, 17)); !errors.Is(err, errFlood) {
		t.Fatalf("flood: %v", err)
	}
	c.Write([]byte("0123456789abcdef"))
	if _, err := c.Write([]byte("x")); !errors.Is(err, errFlood) {
		t.Fatalf("flood after a full buffer: %v", err)
	}
	if _, err := c.take(1); !errors.Is(err, errAnnounced) {
		t.Fatalf("bytes kept after a flood: %v", err)
	}
	if _, err := c.Write([]byte("ok")); err != nil {
		t.Fatalf("a write after a flood: %v", err)
	}
	c.reset()
	if got, err := c.take(0); err != nil || len(got) != 0 {
		t.Fatalf("after reset: %q %v", got, err)
	}
	if k, err := c.Read(make([]byte, 4)); k != 0 || err != io.EOF {
		t.Fatalf("read after reset: %d %v", k, err)
	}
}

// FuzzChannel drives a channel as a hostile guest would: writes of any
// size, takes announcing any length, reads of any size. It must never
// panic, never return more than was written, and hand back exactly the
// last n bytes written.
func FuzzChannel(f *testing.F) {
	f.Add([]byte("\x01\x05hello\x02\x05\x03\x04"), uint16(64))
	f.Add([]byte("\x02\xff\x01\x00\x03\x00"), uint16(1))
	f.Fuzz(func(t *testing.T, script []byte, limit uint16) {
		c := newChannel(int(limit))
		var written []byte
		for i := 0; i+1 < len(script); i += 2 {
			op, arg := script[i], int(script[i+1])
			switch op % 4 {
			case 0:
				c.stage(bytes.Repeat([]byte{'h'}, arg), bytes.Repeat([]byte{'b'}, arg/2))
			case 1:
				p := bytes.Repeat([]byte{byte(i)}, arg)
				if _, err := c.Write(p); err == nil {
					written = append(written, p...)
				} else if len(written)+len(p) <= int(limit) {
					t.Fatalf("a write within the limit failed: %v", err)
				} else {
					written = nil // a flood drops what was pending
				}
			case 2:
				got, err := c.take(uint64(arg))
				if arg > len(written) {
					if err == nil {
						t.Fatalf("took %d of %d bytes", arg, len(written))
					}
				} else if err != nil || !bytes.Equal(got, written[len(written)-arg:]) {
					t.Fatalf("take %d: %q %v, wrote %q", arg, got, err, written)
				}
				written = nil
			case 3:
				if k, _ := c.Read(make([]byte, arg)); k > arg {
					t.Fatalf("read %d into %d", k, arg)
				}
			}
		}
		c.reset()
	})
}

// Pending bytes are bounded with the buffer's spare capacity, beside the
// guest's linear memory and the call's output already taken: the room
// left in the instance's memory cap, and maxPending.
func TestChannelPendingCountsItsCapacity(t *testing.T) {
	const mib = 1 << 20
	inUse := 40 * mib
	c := newChannel(64 * mib)
	c.inUse = func() int { return inUse }
	chunk := make([]byte, 3*mib)
	wrote := 0
	for {
		if _, err := c.Write(chunk); err != nil {
			break
		}
		wrote += len(chunk)
		if cap(c.pending) > 24*mib {
			t.Fatalf("%d bytes pending hold a buffer of %d, past the 24 MiB the cap leaves", len(c.pending), cap(c.pending))
		}
	}
	if wrote != 24*mib {
		t.Fatalf("%d MiB went through, want 24", wrote/mib)
	}
	// The output taken stays the host's until the call ends.
	inUse = 0
	c.Write(make([]byte, 10*mib))
	if _, err := c.takeOutput(10 * mib); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write(make([]byte, 55*mib)); !errors.Is(err, errFlood) {
		t.Fatalf("a write past what the output leaves: %v", err)
	}
	c.reset()
	if _, err := c.Write(make([]byte, 60*mib)); err != nil {
		t.Fatalf("a write after the call's end: %v", err)
	}
	// Never more than maxPending, whatever the cap.
	c = newChannel(1 << 30)
	if _, err := c.Write(make([]byte, maxPending+1)); !errors.Is(err, errFlood) {
		t.Fatalf("a write past maxPending: %v", err)
	}
}

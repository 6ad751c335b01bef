// Command garbage is a test plugin that sends malformed requests to a host
// function (juju_log, which needs no capability): bytes that are not a
// frame, a frame too short to be one, a header that is not JSON, a header
// with an unknown field, or the offset of no memory block at all (through
// Extism kernel memory, ABI 1); a request announced longer than what was
// written, or more bytes on stdout than the host keeps (through the
// channel, ABI 2). The host must answer INVALID_ARGUMENT (or refuse the
// flood), which the tool returns as its error, and must not crash.
package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"syscall"

	pdk "github.com/extism/go-pdk"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

//go:wasmimport extism:host/user juju_log
func hostLog(uint64) uint64

//go:wasmimport juju:channel juju_log
func channelLog(uint64) uint64

// GarbageArgs are the arguments of test_garbage.
type GarbageArgs struct {
	Kind string `json:"kind,omitempty" enum:"bytes,short,header,unknown,offset,announce,flood" default:"bytes" desc:"What to send: bytes (random bytes), short (2 bytes), header (a header that is not JSON), unknown (a header with an unknown field), offset (a bogus memory offset), announce (a channel request announced longer than written), flood (stdout written without end)."`
}

func init() {
	juju.Tool("test_garbage", juju.ToolOptions{
		Description: "Test plugin: sends a malformed request to a host function.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
	}, func(_ *juju.Call, in GarbageArgs) (*juju.Result, error) {
		switch in.Kind {
		case "announce":
			return announce()
		case "flood":
			return flood()
		}
		var off uint64
		switch in.Kind {
		case "offset":
			off = 0xFFFF_FFF0
		default:
			mem := pdk.AllocateBytes(payload(in.Kind))
			defer mem.Free()
			off = mem.Offset()
		}
		resp := hostLog(off)
		if resp == 0 {
			return nil, juju.Errorf(abi.Internal, "the host gave no answer")
		}
		mem := pdk.FindMemory(resp)
		return decode(mem.ReadBytes(), in.Kind)
	})
}

// decode returns the host's error from a response frame.
func decode(frame []byte, kind string) (*juju.Result, error) {
	header, _, err := abi.DecodeFrame(frame)
	if err != nil {
		return nil, juju.Errorf(abi.Internal, "the host answered with a malformed frame")
	}
	var st abi.Status
	if err := json.Unmarshal(header, &st); err != nil {
		return nil, juju.Errorf(abi.Internal, "the host answered with a malformed header")
	}
	if e := st.Err(); e != nil {
		return nil, e
	}
	return juju.Text(fmt.Sprintf("the host accepted %s garbage", kind)), nil
}

// announce writes a valid frame to the channel and calls juju_log with a
// length larger than what it wrote.
func announce() (*juju.Result, error) {
	frame := abi.EncodeFrame([]byte(`{"level":"info","message":"x"}`), nil)
	if _, err := syscall.Write(1, frame); err != nil {
		return nil, juju.Errorf(abi.Internal, "the channel refused a small write: %v", err)
	}
	n := channelLog(uint64(len(frame) + 100))
	if n == 0 {
		return nil, juju.Errorf(abi.Internal, "the host gave no answer")
	}
	resp := make([]byte, n)
	if _, err := io.ReadFull(os.Stdin, resp); err != nil {
		return nil, juju.Errorf(abi.Internal, "the answer could not be read: %v", err)
	}
	return decode(resp, "announce")
}

// flood writes stdout in 1 MiB pieces without a host call to take them,
// until the host refuses (TOO_LARGE, as the tool reports it) or 2 GiB.
func flood() (*juju.Result, error) {
	chunk := make([]byte, 1<<20)
	for mib := 0; mib < 2048; mib++ {
		if _, err := syscall.Write(1, chunk); err != nil {
			return nil, juju.Errorf(abi.TooLarge, "the host refused stdout after %d MiB", mib)
		}
	}
	return juju.Text("the host took 2 GiB on stdout"), nil
}

// payload is the malformed request of each kind.
func payload(kind string) []byte {
	switch kind {
	case "short":
		return []byte{1, 2}
	case "header":
		return abi.EncodeFrame([]byte("{not json"), nil)
	case "unknown":
		return abi.EncodeFrame([]byte(`{"level":"info","message":"x","bogus":1}`), nil)
	}
	b := make([]byte, 64)
	x := uint32(2463534242)
	for i := range b { // xorshift: random-looking, the same every run
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	binary.LittleEndian.PutUint32(b, 0xFFFF_0000) // a header longer than the frame
	return b
}

func main() {}

// Command bulk is a test plugin that moves bytes across the wasm boundary
// for the transport's benchmarks: "in" fetches a value with juju_state_get
// (host to guest), "out" stores one with juju_state_put (guest to host).
// The benchmarks answer both with stand-ins that keep nothing, so that what
// is timed is the transport.
package main

import (
	"strconv"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// BulkArgs are the arguments of test_bulk.
type BulkArgs struct {
	Direction string `json:"direction" enum:"in,out" jsonschema:"required" desc:"in: the host sends the bytes; out: the plugin sends them."`
	Bytes     int    `json:"bytes,omitempty" min:"0" desc:"For out, how many bytes to send."`
}

// outBuf is what "out" sends, made once so that its allocation is not timed.
var outBuf []byte

func init() {
	juju.Tool("test_bulk", juju.ToolOptions{
		Description: "Test plugin: moves bytes to or from the host.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
	}, func(_ *juju.Call, in BulkArgs) (*juju.Result, error) {
		if in.Direction == "out" {
			if len(outBuf) < in.Bytes {
				outBuf = make([]byte, in.Bytes)
			}
			if err := juju.StatePut("bulk", outBuf[:in.Bytes]); err != nil {
				return nil, err
			}
			return juju.Text(strconv.Itoa(in.Bytes)), nil
		}
		value, _, err := juju.StateGet("bulk")
		if err != nil {
			return nil, err
		}
		return juju.Text(strconv.Itoa(len(value))), nil
	})
}

func main() {}

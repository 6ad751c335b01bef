// Command ints is a test plugin whose tool takes numbers of Go's sized
// types: the schema the SDK generates must bound each by what its type
// holds, or juju would pass a value the SDK then fails to decode.
package main

import (
	"fmt"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// IntsArgs are the arguments of test_ints, one of each sized type.
type IntsArgs struct {
	U8  uint8   `json:"u8"`
	I8  int8    `json:"i8"`
	I16 int16   `json:"i16"`
	U32 uint32  `json:"u32"`
	I32 int32   `json:"i32"`
	F32 float32 `json:"f32"`
}

func init() {
	juju.Tool("test_ints", juju.ToolOptions{
		Description: "Test plugin: returns the numbers it was given.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
	}, func(_ *juju.Call, in IntsArgs) (*juju.Result, error) {
		return juju.Text(fmt.Sprintf("u8=%d i8=%d i16=%d u32=%d i32=%d f32=%g", in.U8, in.I8, in.I16, in.U32, in.I32, in.F32)), nil
	})
}

func main() {}

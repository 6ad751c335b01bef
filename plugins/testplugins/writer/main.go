// Command writer is a test plugin from a third party that asks for
// fs.write: its writes go through juju's journal like the core tools', are
// recorded under its name and can be rolled back; without the grant the
// host answers CAPABILITY_DENIED.
package main

import (
	"bytes"
	"math"
	"unsafe"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// LyingArgs are the arguments of test_write_lying.
type LyingArgs struct {
	Path string `json:"path" jsonschema:"required" desc:"The file the first write names."`
}

// WriterArgs are the arguments of test_write.
type WriterArgs struct {
	Path    string `json:"path" jsonschema:"required" desc:"The file to write."`
	Content string `json:"content" desc:"Its new content."`
	MiB     int    `json:"mib,omitempty" min:"0" desc:"When set, content repeated to this many MiB."`
}

func init() {
	juju.Tool("test_write", juju.ToolOptions{
		Description: "Test plugin: writes a file through the journal.",
		Tier:        abi.TierEdit,
	}, func(_ *juju.Call, in WriterArgs) (*juju.Result, error) {
		content := []byte(in.Content)
		if in.MiB > 0 && len(content) > 0 {
			content = bytes.Repeat(content, (in.MiB<<20+len(content)-1)/len(content))
		}
		res, err := new(juju.Change).Write(abi.ChangeOp{Path: in.Path}, content).Apply()
		if err != nil {
			return nil, err
		}
		return juju.Text("change " + res.ChangeID), nil
	})
	juju.Tool("test_write_lying", juju.ToolOptions{
		Description: "Test plugin: asks the journal for two writes of one byte each, the second claiming 2^63-1 bytes.",
		Tier:        abi.TierEdit,
	}, func(_ *juju.Call, in LyingArgs) (*juju.Result, error) {
		c := new(juju.Change).Write(abi.ChangeOp{Path: in.Path}, []byte("x")).Write(abi.ChangeOp{Path: in.Path + ".2"}, []byte("y"))
		// The SDK states each length itself; a hostile plugin states its
		// own, the request's fields being unexported, not out of reach.
		req := (*abi.ChangeRequest)(unsafe.Pointer(c))
		req.Ops[1].Length = math.MaxInt64
		res, err := c.Apply()
		if err != nil {
			return nil, err
		}
		return juju.Text("change " + res.ChangeID), nil
	})
}

func main() {}

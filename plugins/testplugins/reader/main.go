// Command reader is a test plugin that asks for fs.read and reads one file:
// installed without the grant, its call fails with CAPABILITY_DENIED; once
// the owner grants fs.read, it reads.
package main

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// ReaderArgs are the arguments of test_reader.
type ReaderArgs struct {
	Path string `json:"path" jsonschema:"required" desc:"The file to read, relative to the first root."`
}

func init() {
	juju.Tool("test_reader", juju.ToolOptions{
		Description: "Test plugin: returns the content of a file, read with the fs.read capability.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
	}, func(_ *juju.Call, in ReaderArgs) (*juju.Result, error) {
		_, body, err := juju.ReadFile(abi.ReadRequest{Path: in.Path})
		if err != nil {
			return nil, err
		}
		return juju.Text(string(body)), nil
	})
}

func main() {}

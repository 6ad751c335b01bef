// Command nogrant is a test plugin that asks for no capability and still
// reads a file: the host must answer CAPABILITY_DENIED, which the tool
// returns as its error.
package main

import (
	"fmt"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// NoGrantArgs are the arguments of test_nogrant.
type NoGrantArgs struct {
	Path string `json:"path,omitempty" default:"a.txt" desc:"The file to try to read."`
}

func init() {
	juju.Tool("test_nogrant", juju.ToolOptions{
		Description: "Test plugin: reads a file without the fs.read capability.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
	}, func(_ *juju.Call, in NoGrantArgs) (*juju.Result, error) {
		_, body, err := juju.ReadFile(abi.ReadRequest{Path: in.Path})
		if err != nil {
			return nil, err
		}
		return juju.Text(fmt.Sprintf("read %d bytes without the capability", len(body))), nil
	})
}

func main() {}

// Command oom is a test plugin whose tool allocates memory without bound.
package main

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// OOMArgs are the (no) arguments of test_oom.
type OOMArgs struct{}

var hold [][]byte

func init() {
	juju.Tool("test_oom", juju.ToolOptions{
		Description: "Test plugin: allocates until memory runs out.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
	}, func(*juju.Call, OOMArgs) (*juju.Result, error) {
		for {
			b := make([]byte, 1<<20)
			b[len(b)-1] = 1
			hold = append(hold, b)
		}
	})
}

func main() {}

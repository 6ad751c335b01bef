// Command loop is a test plugin whose tool never returns.
package main

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// LoopArgs are the (no) arguments of test_loop.
type LoopArgs struct{}

var spins int

func init() {
	juju.Tool("test_loop", juju.ToolOptions{
		Description: "Test plugin: loops forever.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
	}, func(*juju.Call, LoopArgs) (*juju.Result, error) {
		for i := 0; ; i++ {
			spins = i
			if spins < 0 {
				break
			}
		}
		return juju.Text("unreachable"), nil
	})
}

func main() {}

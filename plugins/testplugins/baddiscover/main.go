// Command baddiscover is a test plugin with three task discoverers: one
// that crashes the plugin (a nil dereference in a goroutine, which nothing
// recovers), one that never returns, and one that works — to show that a
// broken discoverer costs project_overview a warning, never the overview,
// and that installed plugins' discoverers are run too.
package main

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

var (
	sink  *int
	spins int
)

func init() {
	juju.Discoverer("crash", []string{"crash.txt"}, func(abi.DiscoverRequest) (*abi.DiscoverResult, error) {
		done := make(chan struct{})
		go func() {
			*sink = 1 // sink is nil: the goroutine panics, and nothing recovers it
			close(done)
		}()
		<-done
		return nil, nil
	})
	juju.Discoverer("spin", []string{"spin.txt"}, func(abi.DiscoverRequest) (*abi.DiscoverResult, error) {
		for i := 0; ; i++ {
			spins = i
			if spins < 0 {
				break
			}
		}
		return nil, nil
	})
	juju.Discoverer("fine", []string{"*.fine"}, func(req abi.DiscoverRequest) (*abi.DiscoverResult, error) {
		res := &abi.DiscoverResult{}
		for _, f := range req.Files {
			res.Tasks = append(res.Tasks, abi.Task{Name: "fine", Runner: "fine", Command: "fine " + f, Cwd: ".", File: f, Line: 1, Kind: "weird"})
		}
		return res, nil
	})
}

func main() {}

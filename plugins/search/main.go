// Command search is juju's core search and information plugin
// (core-search): search_code, read_image, read_instructions and
// environment_info. It asks for fs.read and nothing else.
//
// The search itself runs on the host through the juju_search host function
// (ripgrep, with an argument list the host builds and a policy check of
// every file it reports); when the host has no ripgrep, the plugin searches
// by itself over the fs host functions, under a time cap, and says when the
// result is partial. Images and instruction files are read through the fs
// host functions, so the path policy and secret denial apply; the
// environment is described by the host (juju_environment), which probes
// the programs itself, so this plugin never runs anything.
//
// The four tools share one plugin, as the read tools do: each plugin costs
// its own compiled code and warm instance.
package main

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// readTool returns the options shared by every tool of this plugin: tier R,
// read-only, idempotent, not destructive, closed world.
func readTool(title, description string, output any) juju.ToolOptions {
	return juju.ToolOptions{
		Title:       title,
		Description: description,
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
		Output:      output,
	}
}

func main() {}

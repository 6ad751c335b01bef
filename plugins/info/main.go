// Command info is juju's core information plugin (core-info): read_image,
// read_instructions and environment_info. It asks for fs.read and nothing
// else: images and instruction files are read through the fs host
// functions (so the path policy and secret denial apply), and the
// environment is described by the host (juju_environment), which probes
// the programs itself, so this plugin never runs anything.
package main

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// readTool returns the options shared by every tool of this plugin.
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

// Command read is juju's core read plugin (core-read): list_directory,
// read_file, read_files, file_info and glob_files, and approval_status. It
// reads the workspace only through juju's fs host functions, so the host's
// path policy and secret denial apply to every byte it sees; it asks for the
// fs.read capability and nothing else (approval_status needs none).
//
// Each tool lives in its own file beside its arguments and result types,
// from which the SDK generates the schemas in manifest.json
// (go run ./internal/cmd/buildplugins -update plugins/read rewrites them).
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

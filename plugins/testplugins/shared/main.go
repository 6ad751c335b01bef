// Command shared is a test plugin whose module serves two plugins: its own,
// test-shared, granted nothing, and test-shared-reader (folder
// sharedreader, whose manifest names this module), granted fs.read. Both
// tools read the same file with the same code: the grants of the plugin a
// call runs in, not the module's code, decide what it may do.
package main

import (
	"fmt"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// SharedArgs are the arguments of both tools.
type SharedArgs struct {
	Path string `json:"path,omitempty" default:"a.txt" desc:"The file to read."`
}

func read(_ *juju.Call, in SharedArgs) (*juju.Result, error) {
	_, body, err := juju.ReadFile(abi.ReadRequest{Path: in.Path})
	if err != nil {
		return nil, err
	}
	return juju.Text(fmt.Sprintf("read %d bytes", len(body))), nil
}

func init() {
	juju.Tool("test_shared_read", juju.ReadTool("Read (test-shared)",
		"Test plugin: reads a file as the plugin test-shared, which holds no capability.", nil), read)
	opts := juju.ReadTool("Read (test-shared-reader)",
		"Test plugin: reads a file as the plugin test-shared-reader, which holds fs.read.", nil)
	opts.Plugin = "test-shared-reader"
	juju.Tool("test_shared_read_granted", opts, read)
}

func main() {}

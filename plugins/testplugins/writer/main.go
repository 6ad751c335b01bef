// Command writer is a test plugin from a third party that asks for
// fs.write: its writes go through juju's journal like the core tools', are
// recorded under its name and can be rolled back; without the grant the
// host answers CAPABILITY_DENIED.
package main

import (
	"bytes"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// WriterArgs are the arguments of test_write.
type WriterArgs struct {
	Path    string `json:"path" jsonschema:"required" desc:"The file to write."`
	Content string `json:"content" desc:"Its new content."`
	MiB     int    `json:"mib,omitempty" min:"0" desc:"When set, content repeated to this many MiB."`
}

func init() {
	juju.Tool("test_write", juju.ToolOptions{
		Description: "Test plugin: writes a file through the journal.",
		Tier:        abi.TierEdit,
	}, func(_ *juju.Call, in WriterArgs) (*juju.Result, error) {
		content := []byte(in.Content)
		if in.MiB > 0 && len(content) > 0 {
			content = bytes.Repeat(content, (in.MiB<<20+len(content)-1)/len(content))
		}
		res, err := new(juju.Change).Write(abi.ChangeOp{Path: in.Path}, content).Apply()
		if err != nil {
			return nil, err
		}
		return juju.Text("change " + res.ChangeID), nil
	})
}

func main() {}

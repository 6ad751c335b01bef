// Command gated is a test plugin with one edit-tier and one exec-tier tool,
// for the trust-mode gate's end-to-end tests. Each logs a line on juju's log
// (its only effect on the world) and returns its text, so a test can tell
// whether a held call ran.
package main

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// GatedArgs are the arguments of the test_gated_* tools.
type GatedArgs struct {
	Text string `json:"text" jsonschema:"required" desc:"The text to log and send back."`
}

func init() {
	for _, t := range []struct{ name, tier string }{
		{"test_gated_edit", abi.TierEdit},
		{"test_gated_exec", abi.TierExec},
	} {
		name := t.name
		juju.Tool(name, juju.ToolOptions{
			Description: "Test plugin: a tier " + t.tier + " tool that logs its text and returns it.",
			Tier:        t.tier,
		}, func(_ *juju.Call, in GatedArgs) (*juju.Result, error) {
			juju.Logf(juju.LevelInfo, "gated ran %s: %s", name, in.Text)
			return juju.Text("ran " + name + ": " + in.Text), nil
		})
	}
}

func main() {}

// Command echo is a well-behaved test plugin: its tool returns its text.
package main

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// EchoArgs are the arguments of test_echo.
type EchoArgs struct {
	Text string `json:"text" jsonschema:"required" desc:"The text to send back."`
}

// Echo is the structured content of test_echo.
type Echo struct {
	Text string `json:"text" desc:"The text received."`
}

func init() {
	juju.Tool("test_echo", juju.ToolOptions{
		Description: "Test plugin: returns its text.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
		Output:      Echo{},
	}, func(_ *juju.Call, in EchoArgs) (*juju.Result, error) {
		return juju.Text(in.Text).WithStructured(Echo{Text: in.Text}), nil
	})
}

func main() {}

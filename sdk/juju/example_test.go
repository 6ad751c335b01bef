package juju_test

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// GreetArgs are the arguments of the greet tool: one Go type is both the
// input schema and what the handler receives.
type GreetArgs struct {
	Name  string `json:"name" jsonschema:"required" desc:"Who to greet."`
	Times int    `json:"times,omitempty" default:"1" min:"1" max:"5" desc:"How often."`
}

func Example() {
	juju.Tool("greet", juju.ToolOptions{
		Description: "Greets someone. Use it to say hello.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
	}, func(c *juju.Call, in GreetArgs) (*juju.Result, error) {
		if in.Name == "world" {
			return nil, juju.Errorf(abi.InvalidArgument, "greet someone in particular; pass a person's name")
		}
		return juju.Text(strings.Repeat("hello "+in.Name+"\n", in.Times)), nil
	})

	d, _ := juju.Describe()
	for _, t := range d.Tools {
		if t.Name == "greet" {
			fmt.Println(string(t.InputSchema))
		}
	}
	// Output:
	// {"type":"object","properties":{"name":{"type":"string","description":"Who to greet."},"times":{"type":"integer","description":"How often.","default":1,"minimum":1,"maximum":5}},"required":["name"],"additionalProperties":false}
}

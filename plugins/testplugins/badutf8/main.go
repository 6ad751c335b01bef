// Command badutf8 is a test plugin whose structured content holds bytes
// that are not UTF-8, inside a JSON string: valid JSON to a scanner that
// looks only at its structure, as encoding/json's is, but not a JSON text
// (RFC 8259 requires UTF-8), which a client's strict decoder refuses, and
// with it the whole message.
package main

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// Bad is the structured content of test_badutf8: its text is written as
// it is, not as encoding/json would write it (which makes each byte that
// is not UTF-8 a U+FFFD).
type Bad struct {
	Text string `json:"text" desc:"Bytes that are not UTF-8."`
}

// MarshalJSON writes b's text between quotes, byte for byte.
func (b Bad) MarshalJSON() ([]byte, error) {
	return []byte(`{"text":"` + b.Text + `"}`), nil
}

func init() {
	juju.Tool("test_badutf8", juju.ToolOptions{
		Description: "Test plugin: returns structured content that is not UTF-8.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
		Output:      Bad{},
	}, func(_ *juju.Call, _ struct{}) (*juju.Result, error) {
		return juju.Text("not UTF-8").WithStructured(Bad{Text: "a\xff\xfeb\xc3"}), nil
	})
}

func main() {}

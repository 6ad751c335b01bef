//go:build !wasip1

package juju

import (
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// ownJSON writes its own JSON, or declines when Decline is set.
type ownJSON struct {
	N       int  `json:"n"`
	Decline bool `json:"decline,omitempty"`
}

func (o *ownJSON) AppendJSON(b []byte) ([]byte, bool) {
	if o.Decline {
		return b, false
	}
	return append(b, `{"n":-1,"by":"hand"}`...), true
}

type ownArgs struct {
	Decline bool `json:"decline,omitempty"`
}

func init() {
	Tool("test_own_json", ToolOptions{Title: "Own", Description: "Writes its own JSON.", Tier: abi.TierRead, Output: ownJSON{}},
		func(_ *Call, in ownArgs) (*Result, error) {
			return Text("x").WithStructured(&ownJSON{N: 7, Decline: in.Decline}), nil
		})
}

func TestJSONAppender(t *testing.T) {
	if res := call(t, "test_own_json", `{}`); string(res.Structured) != `{"n":-1,"by":"hand"}` {
		t.Errorf("an Output type's own JSON was not used: %s", res.Structured)
	}
	if res := call(t, "test_own_json", `{"decline":true}`); string(res.Structured) != `{"n":7,"decline":true}` {
		t.Errorf("a declined AppendJSON was not left to the SDK: %s", res.Structured)
	}
}

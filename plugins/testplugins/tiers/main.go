// Command tiers is a test plugin whose tools, one of each tier, call host
// functions that need fs.write, exec, exec.shell or net.fetch. The host must
// refuse those above the calling tool's declared tier (CAPABILITY_DENIED),
// whatever the plugin was granted. The host functions it imports
// (juju_test_write, juju_test_exec, juju_test_shell, juju_test_fetch) exist
// only in the runtime's unit tests, which link them with those capabilities.
package main

import (
	"encoding/json"
	"fmt"

	pdk "github.com/extism/go-pdk"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

//go:wasmimport extism:host/user juju_test_write
func hostWrite(uint64) uint64

//go:wasmimport extism:host/user juju_test_exec
func hostExec(uint64) uint64

//go:wasmimport extism:host/user juju_test_shell
func hostShell(uint64) uint64

//go:wasmimport extism:host/user juju_test_fetch
func hostFetch(uint64) uint64

// TierArgs are the arguments of the test_tier_* tools.
type TierArgs struct {
	Fn string `json:"fn" jsonschema:"required" enum:"write,exec,shell,fetch" desc:"Which host function to call."`
}

func init() {
	for _, t := range []struct{ name, tier string }{
		{"test_tier_r", abi.TierRead},
		{"test_tier_e", abi.TierEdit},
		{"test_tier_x", abi.TierExec},
	} {
		opts := juju.ToolOptions{
			Description: "Test plugin: a tier " + t.tier + " tool that calls a host function of a higher tier.",
			Tier:        t.tier,
		}
		if t.tier == abi.TierRead {
			opts.Annotations = juju.ReadOnly()
		}
		juju.Tool(t.name, opts, call)
	}
}

func call(_ *juju.Call, in TierArgs) (*juju.Result, error) {
	imp := map[string]func(uint64) uint64{"write": hostWrite, "exec": hostExec, "shell": hostShell, "fetch": hostFetch}[in.Fn]
	mem := pdk.AllocateBytes(abi.EncodeFrame([]byte(`{}`), nil))
	defer mem.Free()
	resp := imp(mem.Offset())
	if resp == 0 {
		return nil, juju.Errorf(abi.Internal, "the host gave no answer")
	}
	out := pdk.FindMemory(resp)
	header, _, err := abi.DecodeFrame(out.ReadBytes())
	if err != nil {
		return nil, juju.Errorf(abi.Internal, "the host answered with a malformed frame")
	}
	var st abi.Status
	if err := json.Unmarshal(header, &st); err != nil {
		return nil, juju.Errorf(abi.Internal, "the host answered with a malformed header")
	}
	if e := st.Err(); e != nil {
		return nil, e
	}
	return juju.Text(fmt.Sprintf("reached %s", in.Fn)), nil
}

func main() {}

package pluginbuild

import (
	"cmp"
	"maps"
	"slices"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// hostCapabilities is the capability each host function needs ("" for
// none), as the host's own functions declare it (hostfns.Func.Capability;
// a test of package host holds the two together).
var hostCapabilities = map[string]abi.Capability{
	abi.FnLog:            "",
	abi.FnEnvironment:    "",
	abi.FnApprovalStatus: "",
	abi.FnFSRead:         abi.CapFSRead,
	abi.FnFSReads:        abi.CapFSRead,
	abi.FnFSList:         abi.CapFSRead,
	abi.FnFSStat:         abi.CapFSRead,
	abi.FnFSGlob:         abi.CapFSRead,
	abi.FnFSHistory:      abi.CapFSRead,
	abi.FnSearch:         abi.CapFSRead,
	abi.FnDiscoverTasks:  abi.CapFSRead,
	abi.FnFSApply:        abi.CapFSWrite,
	abi.FnFSPlan:         abi.CapFSWrite,
	abi.FnFSPlanApply:    abi.CapFSWrite,
	abi.FnFSPlanDiscard:  abi.CapFSWrite,
	abi.FnFSRollback:     abi.CapFSWrite,
	abi.FnExec:           abi.CapExec,
	abi.FnJob:            abi.CapExec,
	abi.FnExecShell:      abi.CapExecShell,
	abi.FnFetch:          abi.CapNetFetch,
	abi.FnGit:            abi.CapGit,
	abi.FnLSP:            abi.CapLSP,
	abi.FnStateGet:       abi.CapState,
	abi.FnStatePut:       abi.CapState,
}

// HostCapabilities returns, by name, the capability each host function
// needs ("" for none).
func HostCapabilities() map[string]abi.Capability { return maps.Clone(hostCapabilities) }

// Unasked is a host function a module imports whose capability its
// manifest does not ask for.
type Unasked struct {
	Function   string         `json:"function"`
	Capability abi.Capability `json:"capability"`
}

// UnaskedCapabilities lists the host functions wasm imports (through the
// Extism convention or the channel) whose capability m does not ask for,
// in the order of the capabilities juju knows, then by name. Every call of
// one is refused at run time (CAPABILITY_DENIED), and no grant can change
// that: an owner can grant only what the manifest asks for. The build
// warns rather than fails: an import is not a call, and a module may link
// a function on a path it never takes (juju's core module links juju_exec
// for core-exec, which it also serves, though core does not ask for exec).
func UnaskedCapabilities(wasm []byte, m *manifest.Manifest) ([]Unasked, error) {
	asked := m.CapabilitySet()
	seen := map[string]bool{}
	var out []Unasked
	for _, ns := range []string{abi.HostNamespace, abi.ChannelNamespace} {
		names, err := plugin.ImportedFuncs(wasm, ns)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			c, ok := hostCapabilities[n]
			if !ok || c == "" || asked[c] || seen[n] {
				continue
			}
			seen[n] = true
			out = append(out, Unasked{Function: n, Capability: c})
		}
	}
	slices.SortFunc(out, func(a, b Unasked) int {
		if c := cmp.Compare(rank(a.Capability), rank(b.Capability)); c != 0 {
			return c
		}
		return cmp.Compare(a.Function, b.Function)
	})
	return out, nil
}

// rank is c's place in abi.Capabilities.
func rank(c abi.Capability) int {
	return slices.IndexFunc(abi.Capabilities, func(k struct {
		Name  abi.Capability
		Words string
	}) bool {
		return k.Name == c
	})
}

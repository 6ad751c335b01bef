package host

import (
	"maps"
	"testing"

	"github.com/jujutools/juju/host/pluginbuild"
	"github.com/jujutools/juju/sdk/abi"
)

// juju plugins build warns of an imported host function whose capability
// the manifest does not ask for, by its own table of what each function
// needs: the table is the host's functions, each with its capability.
func TestBuildKnowsEachHostFunctionsCapability(t *testing.T) {
	h := newCoreHost(t, "")
	got := map[string]abi.Capability{}
	for _, f := range h.hostFunctions() {
		got[f.Name] = f.Capability
	}
	if want := pluginbuild.HostCapabilities(); !maps.Equal(got, want) {
		t.Errorf("the host's functions need\n%v\nthe build's table says\n%v", got, want)
	}
}

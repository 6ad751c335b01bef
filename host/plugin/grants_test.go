package plugin

import (
	"testing"

	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// A plugin holds only grants its own manifest asks for, whatever it is
// handed: grants meant for another version of it give its code nothing.
func TestSetGrantsHoldsOnlyWhatTheManifestAsks(t *testing.T) {
	r, err := NewRuntime(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(t.Context())
	p := r.Load(&manifest.Manifest{Name: "v1", Capabilities: []abi.Capability{abi.CapState}}, nil, []abi.Capability{abi.CapState, abi.CapFSRead}, nil)
	if !p.Granted(abi.CapState) || p.Granted(abi.CapFSRead) {
		t.Fatalf("at load: state %v, fs.read %v; want true, false", p.Granted(abi.CapState), p.Granted(abi.CapFSRead))
	}
	p.SetGrants([]abi.Capability{abi.CapFSRead, abi.CapExec})
	if p.Granted(abi.CapFSRead) || p.Granted(abi.CapExec) || p.Granted(abi.CapState) {
		t.Fatal("SetGrants gave capabilities the manifest does not ask for")
	}
}

package pluginbuild

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// A module's imports are held to its manifest's capabilities: nogrant
// reads a file and asks for nothing; reader asks for fs.read; a
// capability asked for and never imported is no matter.
func TestUnaskedCapabilities(t *testing.T) {
	for _, c := range []struct {
		src  string
		caps []abi.Capability
		want []Unasked
	}{
		{"plugins/testplugins/nogrant", nil, []Unasked{{abi.FnFSRead, abi.CapFSRead}}},
		{"plugins/testplugins/reader", []abi.Capability{abi.CapFSRead}, nil},
		{"plugins/testplugins/nogrant", []abi.Capability{abi.CapFSRead, abi.CapExec}, nil},
	} {
		wasm, err := os.ReadFile(filepath.Join(ForTest(t, repo(c.src)), WasmFile))
		if err != nil {
			t.Fatal(err)
		}
		got, err := UnaskedCapabilities(wasm, &manifest.Manifest{Capabilities: c.caps})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s asking %v: unasked %v, want %v", c.src, c.caps, got, c.want)
		}
	}
}

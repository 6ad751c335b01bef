package host

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/jujutools/juju/host/core"
	"github.com/jujutools/juju/host/pluginbuild"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/sdk/abi"
)

// juju plugins build warns of an imported host function whose capability
// the manifest does not ask for, by its own table of what each function
// needs: the table is the host's functions, each with its capability.
func TestBuildKnowsEachHostFunctionsCapability(t *testing.T) {
	if _, err := core.Plugins(); errors.Is(err, core.ErrNotBuilt) {
		t.Skip("core plugins not built (run `make plugins`)")
	}
	tmp := t.TempDir()
	root := filepath.Join(tmp, "ws")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	dirs := config.Dirs{Config: filepath.Join(tmp, "config"), State: filepath.Join(tmp, "state"), Data: filepath.Join(tmp, "data"), Cache: filepath.Join(tmp, "cache")}
	h, err := New(Config{Roots: []string{root}, Dirs: dirs})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	got := map[string]abi.Capability{}
	for _, f := range h.hostFunctions() {
		got[f.Name] = f.Capability
	}
	if want := pluginbuild.HostCapabilities(); !maps.Equal(got, want) {
		t.Errorf("the host's functions need\n%v\nthe build's table says\n%v", got, want)
	}
}

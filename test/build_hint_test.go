package test

import (
	"strings"
	"testing"
)

// The install command juju plugins build prints grants what the manifest
// asks for: followed by a script, whose install has no terminal to ask on,
// it installs a plugin that can do its work, not one granted nothing.
func TestPluginsBuildHintGrantsWhatTheManifestAsks(t *testing.T) {
	home := newHome(t)
	dir := authorFolder(t)
	editJSON(t, dir+"/manifest.json", func(m map[string]any) { m["capabilities"] = []string{"fs.read", "state"} })
	out := cliOK(t, home, "plugins", "build", "--wasm", buildRaw(t, ""), dir)
	_, hint, ok := strings.Cut(out, "Install it with: juju ")
	hint, _, _ = strings.Cut(hint, "\n")
	if !ok || !strings.Contains(hint, "--grant fs.read --grant state") {
		t.Fatalf("the hint grants nothing:\n%s", out)
	}
	cliOK(t, home, strings.Fields(hint)...) // no quoting: the folder's path is plain
	var info struct {
		Asks []struct {
			Name    string `json:"name"`
			Granted bool   `json:"granted"`
		} `json:"asks"`
	}
	cliJSON(t, home, &info, "plugins", "info", "test-raw")
	if len(info.Asks) != 2 || !info.Asks[0].Granted || !info.Asks[1].Granted {
		t.Errorf("installed as the hint says, the plugin holds: %+v", info.Asks)
	}
}

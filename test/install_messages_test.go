package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/installed"
)

// A plugin whose juju_describe traps is refused at install, and by
// juju plugins build, in words for its owner and author: what failed and
// whose fault it is, not the advice a failing tool gives the model
// ("narrow the request", "the host replaced the instance"), no wasm stack
// trace, and not the error of juju's warm-up call made beside it.
func TestDescribeFailureSaysSoAtInstall(t *testing.T) {
	home := newHome(t)
	dir := authorFolder(t)
	cliOK(t, home, "plugins", "build", "--wasm", buildRaw(t, ""), dir)
	trap, err := os.ReadFile(buildRaw(t, "rawdescribetrap"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "plugin.wasm"), trap, 0o644)
	editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) {
		m["wasm"].(map[string]any)["sha256"] = installed.Hash(trap)
	})
	check := func(what, out string) {
		t.Helper()
		if !strings.Contains(out, "the plugin's juju_describe failed: it failed: wasm error: unreachable") {
			t.Errorf("%s does not say juju_describe trapped:\n%s", what, out)
		}
		for _, stale := range []string{"narrow the request", "replaced the instance", "raw: no tool", "stack trace", "main.describe"} {
			if strings.Contains(out, stale) {
				t.Errorf("%s says %q:\n%s", what, stale, out)
			}
		}
	}
	out, errs, code := cli(t, home, nil, "plugins", "install", dir, "--yes")
	if code == 0 {
		t.Fatalf("installed a plugin whose juju_describe traps:\n%s", out)
	}
	check("install", errs)
	if !strings.Contains(errs, "the plugin is broken, not your setup: tell its author") {
		t.Errorf("install does not say whose fault it is:\n%s", errs)
	}
	_, errs, code = cli(t, home, nil, "plugins", "build", "--wasm", filepath.Join(dir, "plugin.wasm"), authorFolder(t))
	if code == 0 {
		t.Fatal("built a plugin whose juju_describe traps")
	}
	check("build", errs)
}

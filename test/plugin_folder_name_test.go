package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A folder in the plugins folder holding another plugin's files (a copy
// put there by hand) is refused, and listed by its folder's name: the
// name remove, verify and info take. Listed by its manifest's, it read as
// a second test-reader, refused, and removing what the list named removed
// the plugin that worked.
func TestStrayPluginFolderListedByItsName(t *testing.T) {
	home := newHome(t)
	cliOK(t, home, "plugins", "install", pluginCopy(t, "reader"), "--yes")
	plugins := filepath.Join(home, "data", "plugins")
	stray := filepath.Join(plugins, "reader-copy")
	os.MkdirAll(stray, 0o700)
	for _, f := range []string{"manifest.json", "plugin.wasm", "grants.json"} {
		b, err := os.ReadFile(filepath.Join(plugins, "test-reader", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(stray, f), b, 0o600)
	}

	var all []listed
	cliJSON(t, home, &all, "plugins", "list")
	names := map[string]listed{}
	for _, p := range all {
		if _, twice := names[p.Name]; twice {
			t.Errorf("plugins list names %s twice: %+v", p.Name, all)
		}
		names[p.Name] = p
	}
	if p := names["reader-copy"]; p.State != "refused" || !strings.Contains(p.Error, `folder reader-copy holds plugin "test-reader"`) {
		t.Errorf("the stray folder is listed as %+v", p)
	}
	if p := names["test-reader"]; p.State == "refused" {
		t.Errorf("the installed plugin is listed as %+v", p)
	}
	if out := cliOK(t, home, "plugins", "info", "reader-copy"); !strings.Contains(out, stray) {
		t.Errorf("plugins info reader-copy:\n%s", out)
	}

	cliOK(t, home, "plugins", "remove", "reader-copy")
	if _, err := os.Stat(filepath.Join(plugins, "test-reader", "plugin.wasm")); err != nil {
		t.Errorf("removing the stray folder took the installed plugin: %v", err)
	}
	if p := findListed(t, home, "test-reader"); p.State == "refused" {
		t.Errorf("after the remove, test-reader is %+v", p)
	}
}

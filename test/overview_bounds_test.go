package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/installed"
)

// editInstalled changes the manifest of the installed plugin name in home
// with edit, and pins the new manifest in its grants.json as an install
// would: the plugin is loaded from it at the next start.
func editInstalled(t *testing.T, home, name string, edit func(m map[string]any)) {
	t.Helper()
	dir := filepath.Join(home, "data", "plugins", name)
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	data, _ = json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	var g map[string]any
	gdata, err := os.ReadFile(filepath.Join(dir, "grants.json"))
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(gdata, &g)
	g["manifestSha256"] = installed.Hash(data)
	gdata, _ = json.Marshal(g)
	if err := os.WriteFile(filepath.Join(dir, "grants.json"), gdata, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A plugin holding no capability whose discoverer's glob is forty {,}
// groups (a trillion forms for the matcher to try on each file name, in
// host code) is refused at start, and project_overview answers at once
// with the core tasks; before, it never answered.
func TestOverviewRefusesADiscovererGlobBomb(t *testing.T) {
	home := t.TempDir()
	installForTest(t, home, "plugins/testplugins/baddiscover", nil)
	editInstalled(t, home, "test-baddiscover", func(m map[string]any) {
		m["discoverers"] = []map[string]any{{"name": "fine", "files": []string{strings.Repeat("{,}", 40) + "x"}}}
	})
	root := workspace(t, map[string]string{"Makefile": ".PHONY: build\nbuild:\n\ttrue\n", "main.go": "package main\n"})
	s := startHome(t, home, root, "--mode", "trusted")
	t0 := time.Now()
	o, _ := s.overview(nil)
	checkTasks(t, o, `build | make | make build | . | Makefile:2 | build`)
	if took := time.Since(t0); took > 20*time.Second {
		t.Errorf("project_overview took %v", took)
	}
	if log := s.stderr(); !strings.Contains(log, "test-baddiscover") || !strings.Contains(log, "forms") {
		t.Errorf("the refused plugin is not on the owner's log:\n%s", log)
	}
}

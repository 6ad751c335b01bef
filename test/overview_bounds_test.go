package test

import (
	"encoding/json"
	"fmt"
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

// A plugin holding no capability, with 64 discoverers that each answer
// 5,000 tasks of every field at its bound for every file, costs the
// overview a warning: the core tasks, the languages and the git section
// come back, and what juju holds stays bounded. Before, 100 such
// discoverers took juju from 67 to 703 MB and the overview failed with
// PLUGIN_FAILED after 33 s.
func TestOverviewBoundsWhatDiscoverersReturn(t *testing.T) {
	home := t.TempDir()
	installForTest(t, home, "plugins/testplugins/taskflood", nil)
	root := workspace(t, map[string]string{"Makefile": ".PHONY: build\nbuild:\n\ttrue\n", "main.go": "package main\n"})
	s := startHome(t, home, root, "--mode", "trusted")
	s.ok("list_directory", map[string]any{"path": "."})
	pid := jujuPID(t, root)
	before := hwm(t, pid)
	t0 := time.Now()
	o, _ := s.overview(nil)
	took, grew := time.Since(t0), hwm(t, pid)-before
	t.Logf("project_overview took %v; juju's peak grew by %d MB", took, grew>>20)
	if !strings.Contains(o.taskLines(), "build | make | make build | . | Makefile:2 | build\n") {
		t.Errorf("the core task is missing from the first tasks:\n%.2000s", o.taskLines())
	}
	if len(o.Languages) != 2 || !o.Git.Available {
		t.Errorf("languages %+v, git %+v", o.Languages, o.Git)
	}
	if w := o.warningLines(); !strings.Contains(w, "the first tasks are kept") || !strings.Contains(w, "discoverers were not run") {
		t.Errorf("no warning says tasks were left out:\n%s", w)
	}
	if grew > 400<<20 {
		t.Errorf("juju's peak resident size grew by %d MB", grew>>20)
	}
}

// A repository alone — two Makefiles and two deno.json of 2,500 long
// tasks each (17 MB), the discoverers' answer about 18 MB — gets an
// overview: the first tasks, a warning saying how many were left out, and
// the languages. Before, that answer passed the 16 MiB a host function may
// return and the whole overview failed (or, when deno's discoverer ran out
// of time on a loaded machine, it came back with no such warning).
func TestOverviewOfARepositoryOfTooManyTasks(t *testing.T) {
	const n = 2500
	// Names are cut to 200 bytes as a task's name, not in its command.
	name := func(i int) string { return fmt.Sprintf("s%04d%s", i, strings.Repeat("p", 985)) }
	doc := strings.Repeat("d", 500)
	var mk strings.Builder
	for i := range n {
		fmt.Fprintf(&mk, "%s ", name(i))
		if i%500 == 499 {
			fmt.Fprintf(&mk, ": ## %s\n\ttrue\n", doc) // one rule of 500 targets
		}
	}
	tasks := map[string]string{}
	for i := range n {
		tasks[name(i)] = doc
	}
	dj, _ := json.Marshal(map[string]any{"tasks": tasks})
	root := workspace(t, map[string]string{
		"a/Makefile":   mk.String(),
		"a2/Makefile":  mk.String(),
		"c/deno.json":  string(dj),
		"c2/deno.json": string(dj),
		"main.go":      "package main\n",
	})
	s := start(t, root, "--mode", "trusted")
	t0 := time.Now()
	o, txt := s.overview(nil)
	t.Logf("project_overview took %v", time.Since(t0))
	if len(o.Tasks) == 0 || o.Tasks[0].Cwd != "a" || len(o.Languages) == 0 {
		t.Errorf("%d tasks, the first:\n%.300s\nlanguages %+v\nwarnings:\n%s", len(o.Tasks), o.taskLines(), o.Languages, o.warningLines())
	}
	if w := o.warningLines(); !strings.Contains(w, "the first tasks are kept") {
		t.Errorf("no warning says tasks were left out:\n%s", w)
	}
	if !strings.Contains(txt, "Warnings:\n  ") {
		t.Errorf("the text lists no warning:\n%.2000s", txt)
	}
}

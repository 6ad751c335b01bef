package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A task discoverer's output is read within bounds: one answering 3 MiB
// of empty tasks ({"tasks":[{},{},…]}, a million of them) costs the
// overview a warning and juju next to no memory, where decoding them all
// (a 152-byte Task for each 3 bytes) took juju's peak up by 369 MB; one
// answering 17 MiB is refused by its size before it is read, where its 6
// million tasks would take over 2 GB (10 MB of them took 1.3 GB and 20 s
// to decode).
func TestDiscovererOutputReadWithinBounds(t *testing.T) {
	home := t.TempDir()
	installForTest(t, home, "plugins/testplugins/hugeout", nil)
	const core = "build | make | make build | . | Makefile:2 | build\n"
	root := workspace(t, map[string]string{"Makefile": ".PHONY: build\nbuild:\n\ttrue\n", "0.huge": ""})
	s := startHome(t, home, root, "--mode", "trusted")
	s.overview(nil) // compiles the plugin, which is not what is measured
	if err := os.Rename(filepath.Join(root, "0.huge"), filepath.Join(root, "3.huge")); err != nil {
		t.Fatal(err)
	}
	pid := jujuPID(t, root)
	before := hwm(t, pid)
	o, _ := s.overview(nil)
	grew := hwm(t, pid) - before
	t.Logf("juju's peak grew by %d MB", grew>>20)
	if !strings.Contains(o.taskLines(), core) {
		t.Errorf("the core task is missing:\n%.2000s", o.taskLines())
	}
	if w := o.warningLines(); !strings.Contains(w, "3.huge: the huge discoverer (plugin test-hugeout) found 1048574 tasks; the first 5000 are kept") {
		t.Errorf("no warning says the tasks were left out:\n%s", w)
	}
	if grew > 150<<20 {
		t.Fatalf("juju's peak resident size grew by %d MB reading 3 MiB of tasks", grew>>20)
	}

	root = workspace(t, map[string]string{"Makefile": ".PHONY: build\nbuild:\n\ttrue\n", "17.huge": ""})
	s = startHome(t, home, root, "--mode", "trusted")
	o, _ = s.overview(nil)
	if !strings.Contains(o.taskLines(), core) {
		t.Errorf("the core task is missing:\n%.2000s", o.taskLines())
	}
	if w := o.warningLines(); !strings.Contains(w, "17.huge: the huge discoverer (plugin test-hugeout) returned 17.0 MiB, more than the 16 MiB juju reads of a discoverer; its tasks are missing") {
		t.Errorf("no warning says the output was refused by its size:\n%s", w)
	}
}

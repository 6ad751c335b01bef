package test

import (
	"reflect"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/memtest"
)

// machineCodeOf is the size of process pid's machine code (memtest).
func machineCodeOf(t *testing.T, pid int) int64 {
	t.Helper()
	n, err := memtest.MachineCode(pid)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A session that asked for a project overview gives the task discoverers'
// plugin back once it went unused for plugins.unloadAfterMs: its machine
// code leaves the process. The next overview loads it again and finds the
// same tasks.
func TestOverviewPluginIsUnloadedWhenIdle(t *testing.T) {
	root := workspace(t, map[string]string{
		"go.mod":   "module example.com/x\n\ngo 1.22\n",
		"main.go":  "package main\n\nfunc main() {}\n",
		"Makefile": "build:\n\tgo build ./...\n",
	})
	home := t.TempDir()
	writeConfig(t, home, "[plugins]\nunloadAfterMs = 500\n")
	s := startHome(t, home, root)
	pid := jujuPID(t, root)
	if res := s.call("read_file", map[string]any{"path": "go.mod"}); res.IsError {
		t.Fatalf("read_file: %s", text(res))
	}
	before := machineCodeOf(t, pid)

	first, _ := s.overview(map[string]any{})
	if len(first.Tasks) == 0 {
		t.Fatal("the overview found no task: the discoverers did not run")
	}
	loaded := machineCodeOf(t, pid)
	if loaded-before < 8<<20 {
		t.Fatalf("the overview's plugin added %d bytes of machine code (%d before): not a measure of it", loaded-before, before)
	}
	var now int64
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if now = machineCodeOf(t, pid); now-before < 1<<20 {
			break
		}
	}
	if now-before >= 1<<20 {
		t.Fatalf("machine code: %d bytes before the overview, %d after it, still %d long after its plugin went idle", before, loaded, now)
	}

	second, _ := s.overview(map[string]any{})
	if !reflect.DeepEqual(first.Tasks, second.Tasks) {
		t.Fatalf("the overview after the reload found other tasks:\n%+v\nthen\n%+v", first.Tasks, second.Tasks)
	}
}

package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A discoverer runs as a caller of its own, tier R, whatever tool started
// the discovery: the discoverer of test-discoverprobe, granted exec,
// exec.shell, fs.write, net.fetch, git and lsp, is refused every one of them
// when a tier X tool (its own plugin's test_discover_x) runs the
// discoverers, as when project_overview (tier R) does. Nothing ran, nothing
// was written.
func TestDiscovererRunsAtTierReadWhateverCalledIt(t *testing.T) {
	home := t.TempDir()
	installForTest(t, home, "plugins/testplugins/discoverprobe", []string{"fs.read", "fs.write", "exec", "exec.shell", "net.fetch", "git", "lsp"})
	root := workspace(t, map[string]string{"probe.txt": "x"})
	if out, err := exec.Command("git", "-C", root, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	s := startHome(t, home, root, "--mode", "trusted")
	got := s.ok("test_discover_x", map[string]any{})
	for _, fn := range []string{"exec", "shell", "write", "fetch", "lsp", "commit"} {
		if !strings.Contains(got, "\n"+fn+": CAPABILITY_DENIED ") && !strings.HasPrefix(got, fn+": CAPABILITY_DENIED ") {
			t.Errorf("the discoverer's %s was not refused:\n%s", fn, got)
		}
	}
	if !strings.Contains(got, "the tool discover:probe is declared tier R") {
		t.Errorf("the refusals do not name the discoverer as the caller:\n%s", got)
	}
	o, _ := s.overview(nil)
	for _, task := range o.Tasks {
		if task.Runner == "probe" && !strings.HasPrefix(task.Description, "CAPABILITY_DENIED ") {
			t.Errorf("project_overview: the discoverer's %s was not refused: %s", task.Name, task.Description)
		}
	}
	for _, f := range []string{"exec-ran", "shell-ran", "written.txt"} {
		if _, err := os.Stat(filepath.Join(root, f)); err == nil {
			t.Errorf("%s exists: the discoverer ran or wrote", f)
		}
	}
	if out, err := exec.Command("git", "-C", root, "log", "--oneline").CombinedOutput(); err == nil {
		t.Errorf("the discoverer committed: %s", out)
	}
}

//go:build unix

package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A language server runs programs by name: pyright runs python3 to find
// its search paths, `#!/usr/bin/env node` runs node, gopls runs go. Each
// is looked up in PATH from the root, so an owner's PATH with a relative
// entry — an empty one (a leading or trailing colon, "$EXTRA:$PATH" with
// EXTRA unset), ".", or "node_modules/.bin" — would have pyright run the
// repository's own python3, unconfined and with no approval, at the first
// get_diagnostics (tier R). The servers get juju's own PATH, which keeps
// no relative entry (cmd/juju trimPath).
func TestLSPServerRunsNoProgramOfTheWorkspace(t *testing.T) {
	ran := filepath.Join(t.TempDir(), "ran")
	root := workspace(t, map[string]string{"pyrightconfig.json": "{}", "main.py": "x: int = 'a'\n"})
	script := "#!/bin/sh\necho \"$0 $*\" >> " + ran + "\nexit 1\n"
	for _, p := range []string{"python3", "python", "bin/python3", "bin/python"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		if err := os.WriteFile(filepath.Join(root, p), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", ":bin:"+os.Getenv("PATH")+":.")
	s := startHome(t, lspHome(t, pyrightServer(t)), root, "--mode", "trusted")
	res := s.with(t).call("get_diagnostics", map[string]any{"path": "main.py"})
	if res.IsError || !strings.Contains(text(res), "reportAssignmentType") {
		t.Fatalf("want pyright's report on main.py: %s", text(res))
	}
	if b, err := os.ReadFile(ran); err == nil {
		t.Fatalf("pyright ran a program of the workspace:\n%s", b)
	}
}

//go:build unix

package test

import "testing"

// pyright registers pull diagnostics after initialize and never pushes
// them to a client that can pull: the first get_diagnostics of a fresh
// pyright must pull (once the registration arrives) and list the error,
// not wait for a push that never comes and call the file clean.
func TestLSPPyrightFirstDiagnosticsArePulled(t *testing.T) {
	root := workspace(t, map[string]string{
		"pyrightconfig.json": "{}\n",
		"bad.py":             "x: int = 'a'\n",
	})
	s := startHome(t, lspHome(t, pyrightServer(t)), root, "--mode", "trusted")
	var d diagList
	decode(t, s.call("get_diagnostics", map[string]any{"path": "bad.py"}), &d)
	if !d.Pulled || !d.has("error", "bad.py", 1, 10, "is not assignable") {
		t.Fatalf("the first call must list pyright's error at bad.py:1:10, pulled: %+v", d)
	}
}

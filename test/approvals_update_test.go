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

// updateGated replaces the installed test-gated plugin, as `juju plugins
// install` of a new version does (a folder renamed into place), by one
// whose manifest declares test_gated_edit tier X.
func updateGated(t *testing.T, home string) {
	t.Helper()
	plugins := filepath.Join(home, "data", "plugins")
	cur := filepath.Join(plugins, "test-gated")
	next := filepath.Join(plugins, ".next-test-gated")
	if err := os.MkdirAll(next, 0o700); err != nil {
		t.Fatal(err)
	}
	wasm, err := os.ReadFile(filepath.Join(cur, "plugin.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(next, "plugin.wasm"), wasm, 0o600)
	mdata, _ := os.ReadFile(filepath.Join(cur, "manifest.json"))
	var m map[string]any
	json.Unmarshal(mdata, &m)
	m["version"] = "0.0.1"
	for _, tool := range m["tools"].([]any) {
		if tool := tool.(map[string]any); tool["name"] == "test_gated_edit" {
			tool["tier"] = "X"
		}
	}
	mdata, _ = json.Marshal(m)
	os.WriteFile(filepath.Join(next, "manifest.json"), mdata, 0o600)
	var pin struct{ Wasm struct{ SHA256 string } }
	json.Unmarshal(mdata, &pin)
	g, _ := json.Marshal(map[string]any{"granted": []string{}, "sha256": pin.Wasm.SHA256, "manifestSha256": installed.Hash(mdata)})
	os.WriteFile(filepath.Join(next, "grants.json"), g, 0o600)
	old := filepath.Join(plugins, ".old-test-gated")
	if err := os.Rename(cur, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, cur); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(old)
}

// An approval covers the call of the plugin the owner was shown: a tool
// approved at tier E ("changes files") whose plugin is updated to declare
// it tier X (runs commands or reaches the network) before the retry does
// not run under the old yes; the owner is asked again.
func TestApprovalIsSpentWhenThePluginChanged(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	home := gateHome(t, 300*time.Millisecond)
	s := startGate(t, home, root, "inspect", "update-e2e", nil)
	args := map[string]any{"text": "after-update"}

	id := pendingIn(t, s.fail("test_gated_edit", args, "APPROVAL_PENDING"))
	juju(t, home, root, "approvals", "approve", id)
	updateGated(t, home)
	if tools := juju(t, home, root, "tools"); !strings.Contains(tools, "test_gated_edit    X") {
		t.Fatalf("the update did not take:\n%s", tools)
	}

	msg := s.fail("test_gated_edit", args, "APPROVAL_PENDING")
	if s.ran("after-update") {
		t.Fatal("the call approved at tier E ran as the updated plugin's tier X tool under the old yes")
	}
	if again := pendingIn(t, msg); again == id {
		t.Errorf("the retry after the update must ask again: %s", msg)
	}
}

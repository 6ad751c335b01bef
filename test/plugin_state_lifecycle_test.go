package test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stateFolders lists the plugin state folders of name (its own, under any
// name juju gives them) in every workspace of home.
func stateFolders(t *testing.T, home, name string) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(home, "state", "workspaces", "*", "state", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range all {
		if b := filepath.Base(d); b == name || strings.HasPrefix(b, name+".") {
			out = append(out, d)
		}
	}
	return out
}

// bumpVersion rewrites the version in the plugin folder's manifest, as a
// new release of the same plugin would have it.
func bumpVersion(t *testing.T, dir, version string) {
	t.Helper()
	p := filepath.Join(dir, "manifest.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte(`"version": "1.0.0"`), []byte(`"version": "`+version+`"`), 1)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A plugin's state is its own install's: an update of it keeps the state,
// a remove deletes it in every workspace, and a plugin installed under the
// same name afterwards, even the same wasm, starts with none — seen by a
// juju started afresh and by one that ran through it all.
func TestPluginStateEndsWithItsRemove(t *testing.T) {
	home := newHome(t)
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	other := workspace(t, map[string]string{"b.txt": "b\n"})
	src := pluginCopy(t, "bulk")
	cliOK(t, home, "plugins", "install", src, "--grant", "state")

	s := startHome(t, home, root, "--mode", "trusted")
	held := func(s *session) string {
		t.Helper()
		return s.ok("test_bulk", map[string]any{"direction": "in"})
	}
	s.ok("test_bulk", map[string]any{"direction": "out", "bytes": 4242})
	startHome(t, home, other, "--mode", "trusted").ok("test_bulk", map[string]any{"direction": "out", "bytes": 7})
	if got := held(s); got != "4242" {
		t.Fatalf("the plugin holds %s bytes, want 4242", got)
	}

	// An update is the same plugin: its state stays.
	bumpVersion(t, src, "1.0.1")
	var up struct {
		Update *struct {
			PreviousVersion string `json:"previousVersion"`
		} `json:"update"`
	}
	cliJSON(t, home, &up, "plugins", "install", src)
	if up.Update == nil || up.Update.PreviousVersion != "1.0.0" {
		t.Fatalf("the second install is not an update: %+v", up)
	}
	if got := held(s); got != "4242" {
		t.Errorf("after an update the running juju's plugin holds %s bytes, want 4242", got)
	}
	if got := held(startHome(t, home, root, "--mode", "trusted")); got != "4242" {
		t.Errorf("after an update a new juju's plugin holds %s bytes, want 4242", got)
	}
	if len(stateFolders(t, home, "test-bulk")) != 2 {
		t.Fatalf("state folders before the remove: %v", stateFolders(t, home, "test-bulk"))
	}

	// A remove takes the state with it, in both workspaces.
	var rm struct {
		Removed      bool `json:"removed"`
		StateRemoved int  `json:"stateRemoved"`
	}
	cliJSON(t, home, &rm, "plugins", "remove", "test-bulk")
	if !rm.Removed || rm.StateRemoved != 2 {
		t.Errorf("remove --json = %+v", rm)
	}
	if left := stateFolders(t, home, "test-bulk"); len(left) != 0 {
		t.Errorf("the removed plugin's state is still on disk: %v", left)
	}

	// The same name installed again starts empty, in the juju that ran
	// through the remove and in a new one.
	cliOK(t, home, "plugins", "install", src, "--grant", "state")
	if got := held(s); got != "0" {
		t.Errorf("a plugin installed after the remove reads %s bytes of the removed one's state (running juju)", got)
	}
	if got := held(startHome(t, home, other, "--mode", "trusted")); got != "0" {
		t.Errorf("a plugin installed after the remove reads %s bytes of the removed one's state (new juju)", got)
	}

	s.ok("test_bulk", map[string]any{"direction": "out", "bytes": 1})
	out := cliOK(t, home, "plugins", "remove", "test-bulk")
	if !strings.Contains(out, "removed test-bulk") || !strings.Contains(out, "its state in 1 workspace") {
		t.Errorf("remove said %q", out)
	}
}

// A plugin installed before installs kept their state apart (its pin has
// no state space) keeps the state it had, through an update too; once
// removed, the plugin installed again under its name does not read it even
// if the old folder could not be deleted.
func TestPluginStateOfAnOlderInstall(t *testing.T) {
	home := newHome(t)
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	src := pluginCopy(t, "bulk")
	cliOK(t, home, "plugins", "install", src, "--grant", "state")
	// Make the install look like one of an older juju: no space in its pin.
	pin := filepath.Join(home, "data", "plugins", "test-bulk", "grants.json")
	var g map[string]any
	b, err := os.ReadFile(pin)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &g); err != nil || g["space"] == nil {
		t.Fatalf("grants.json has no state space: %s", b)
	}
	delete(g, "space")
	b, _ = json.Marshal(g)
	os.WriteFile(pin, b, 0o600)

	s := startHome(t, home, root, "--mode", "trusted")
	s.ok("test_bulk", map[string]any{"direction": "out", "bytes": 99})
	legacy := stateFolders(t, home, "test-bulk")
	if len(legacy) != 1 || filepath.Base(legacy[0]) != "test-bulk" {
		t.Fatalf("an older install's state is kept in %v, want the folder named after the plugin", legacy)
	}
	bumpVersion(t, src, "1.0.1")
	cliOK(t, home, "plugins", "install", src)
	if got := s.ok("test_bulk", map[string]any{"direction": "in"}); got != "99" {
		t.Errorf("after an update an older install's plugin holds %s bytes, want 99", got)
	}
	cliOK(t, home, "plugins", "remove", "test-bulk")
	// A state folder a remove could not delete (here: put back) is not
	// the next install's.
	os.MkdirAll(legacy[0], 0o700)
	os.WriteFile(filepath.Join(legacy[0], "bulk"), []byte("left behind"), 0o600)
	cliOK(t, home, "plugins", "install", src, "--grant", "state")
	if got := s.ok("test_bulk", map[string]any{"direction": "in"}); got != "0" {
		t.Errorf("a plugin installed after the remove reads %s bytes left by the removed one", got)
	}
}

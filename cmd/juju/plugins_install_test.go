package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/host/install"
	"github.com/jujutools/juju/host/pluginbuild"
)

// readerPlugin builds the reader test plugin, changed to ask for fs.read
// and state, into a private folder.
func readerPlugin(t *testing.T) string {
	t.Helper()
	built := pluginbuild.ForTest(t, "../../plugins/testplugins/reader")
	dir := filepath.Join(t.TempDir(), "reader")
	os.MkdirAll(dir, 0o700)
	for _, f := range []string{"manifest.json", "plugin.wasm"} {
		b, err := os.ReadFile(filepath.Join(built, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "manifest.json" {
			b = bytes.Replace(b, []byte(`"fs.read"`), []byte(`"fs.read", "state"`), 1)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o600)
	}
	return dir
}

// On a terminal, install asks about each capability in words and grants
// only those answered yes.
func TestPluginsInstallPrompts(t *testing.T) {
	dirs := jujuHome(t)
	src := readerPlugin(t)
	var out, errw bytes.Buffer
	cmd := &cobra.Command{}
	cmd.SetContext(t.Context())
	cmd.SetOut(&out)
	cmd.SetErr(&errw)
	o := &pluginsInstallOptions{}
	if err := runPluginsInstall(cmd, src, dirs, strings.NewReader("y\nno\n"), true, o); err != nil {
		t.Fatal(err)
	}
	prompts := errw.String()
	for _, want := range []string{
		"The plugin asks for capabilities you have not granted it:",
		"fs.read: read files and list folders inside the workspace roots (never secrets). Grant it? [y/N]",
		"state: keep its own small key-value store. Grant it? [y/N]",
		"compiling test-reader",
	} {
		if !strings.Contains(prompts, want) {
			t.Errorf("stderr lacks %q:\n%s", want, prompts)
		}
	}
	for _, want := range []string{
		"test-reader 1.0.0 installed",
		"fs.read: granted: read files",
		"state: NOT granted: keep its own",
		"juju plugins grant test-reader state",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, out.String())
		}
	}

	// Reinstalling with --json on a closed stdin asks nothing new that it
	// cannot answer: end of input is no.
	out.Reset()
	errw.Reset()
	o = &pluginsInstallOptions{json: true}
	if err := runPluginsInstall(cmd, src, dirs, strings.NewReader(""), true, o); err != nil {
		t.Fatal(err)
	}
	var res install.Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if res.Update == nil || len(res.Granted) != 1 || res.Granted[0] != "fs.read" || len(res.NotGranted) != 1 {
		t.Errorf("update result = %+v", res)
	}
	if strings.Contains(errw.String(), "compiling") {
		t.Errorf("--json printed progress: %q", errw.String())
	}
}

// Without a terminal nothing is asked; --grant alone grants.
func TestPluginsInstallNotInteractive(t *testing.T) {
	dirs := jujuHome(t)
	var out, errw bytes.Buffer
	cmd := &cobra.Command{}
	cmd.SetContext(t.Context())
	cmd.SetOut(&out)
	cmd.SetErr(&errw)
	o := &pluginsInstallOptions{grants: []string{"state"}}
	if err := runPluginsInstall(cmd, readerPlugin(t), dirs, strings.NewReader("y\ny\n"), false, o); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errw.String(), "Grant it?") {
		t.Errorf("asked without a terminal: %q", errw.String())
	}
	if !strings.Contains(out.String(), "state: granted") || !strings.Contains(out.String(), "fs.read: NOT granted") {
		t.Errorf("stdout:\n%s", out.String())
	}
	if isTerminal(strings.NewReader("")) {
		t.Error("a reader is not a terminal")
	}
}

// An update's report names the tools it adds, removes and re-tiers.
func TestPrintInstallShowsToolChanges(t *testing.T) {
	var out bytes.Buffer
	printInstall(&out, &install.Result{
		Name: "rake", Version: "2.0.0", Tools: []string{"rake_run", "rake_new"},
		Update: &install.Update{PreviousVersion: "1.0.0", NewTools: []string{"rake_new"}, RemovedTools: []string{"rake_old"},
			Retiered: []install.Retier{{Tool: "rake_run", From: "R", To: "X"}}},
	})
	for _, want := range []string{
		"rake 2.0.0 updated (from 1.0.0)",
		"  new tools: rake_new\n",
		"  removed tools: rake_old\n",
		"  re-tiered: rake_run R → X (it runs commands or reaches the network)\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
}

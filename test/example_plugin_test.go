package test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The example third-party plugin goes from source to a working tool the
// way the authoring guide says: juju plugins build, juju plugins install
// with a grant, juju tools lists it, a real MCP client calls it.
func TestExamplePluginFromSourceToCall(t *testing.T) {
	home := newHome(t)
	// Build from a copy, as an author would in their own folder outside juju:
	// the copy keeps the example's go.mod, whose replace points at juju's sdk.
	src := filepath.Join(repoRoot, "examples", "procfile")
	out := filepath.Join(t.TempDir(), "procfile")
	var built struct {
		Name   string   `json:"name"`
		Dir    string   `json:"dir"`
		SHA256 string   `json:"sha256"`
		Tools  []string `json:"tools"`
		Disc   []string `json:"discoverers"`
	}
	cliJSON(t, home, &built, "plugins", "build", src, "-o", out)
	if built.Name != "procfile" || len(built.SHA256) != 64 || len(built.Tools) != 1 || built.Tools[0] != "procfile_tasks" ||
		len(built.Disc) != 1 || built.Disc[0] != "procfile" {
		t.Fatalf("build --json = %+v", built)
	}
	// The source folder is left as the author wrote it.
	if _, err := os.Stat(filepath.Join(src, "plugin.wasm")); !os.IsNotExist(err) {
		t.Errorf("build -o wrote into the source folder")
	}

	// An author's own folder, outside juju's tree: build in place, then
	// install the folder itself, as the guide says.
	author := filepath.Join(t.TempDir(), "procfile")
	copyExample(t, src, author)
	cmd := exec.Command(jujuBin, "plugins", "build", ".")
	cmd.Dir = author
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("juju plugins build . in %s: %v\n%s", author, err, b)
	}
	var m struct {
		Wasm  struct{ SHA256 string } `json:"wasm"`
		Tools []struct{ Name string } `json:"tools"`
	}
	b, _ := os.ReadFile(filepath.Join(author, "manifest.json"))
	if err := json.Unmarshal(b, &m); err != nil || len(m.Wasm.SHA256) != 64 || len(m.Tools) != 1 {
		t.Fatalf("the author's manifest after build: %v\n%s", err, b)
	}
	out = author

	installed := cliOK(t, home, "plugins", "install", out, "--grant", "fs.read")
	if !strings.Contains(installed, "procfile 0.1.0 installed") || !strings.Contains(installed, "fs.read: granted") ||
		!strings.Contains(installed, "task discoverers procfile") {
		t.Errorf("install said:\n%s", installed)
	}
	var again struct {
		Tools []string `json:"tools"`
		Disc  []string `json:"discoverers"`
	}
	cliJSON(t, home, &again, "plugins", "install", out, "--grant", "fs.read")
	if len(again.Tools) != 1 || len(again.Disc) != 1 || again.Disc[0] != "procfile" {
		t.Errorf("install --json = %+v", again)
	}
	var tools []struct {
		Name   string `json:"name"`
		Plugin string `json:"plugin"`
		Tier   string `json:"tier"`
	}
	cliJSON(t, home, &tools, "tools")
	found := false
	for _, tl := range tools {
		if tl.Name == "procfile_tasks" {
			found = tl.Plugin == "procfile" && tl.Tier == "R"
		}
	}
	if !found {
		t.Fatalf("juju tools does not list procfile_tasks from plugin procfile")
	}

	root := workspace(t, map[string]string{
		"Procfile":           "web: bundle exec puma\nworker: bundle exec sidekiq\n",
		"Gemfile":            "source 'https://rubygems.org'\n",
		"api/Procfile.dev":   "# dev\napi: uvicorn app:main --reload\nbroken line\n",
		"api/pyproject.toml": "[project]\nname = \"api\"\n",
	})
	s := startHome(t, home, root, "--mode", "trusted")
	res := s.call("procfile_tasks", map[string]any{})
	if res.IsError {
		t.Fatalf("procfile_tasks: %s", text(res))
	}
	var got struct {
		Tasks []struct {
			Name, Runner, Command, Cwd, File, Description, Kind string
			Line                                                int
		} `json:"tasks"`
		Warnings []struct{ File, Message string } `json:"warnings"`
	}
	raw, _ := json.Marshal(structured(t, res))
	json.Unmarshal(raw, &got)
	want := map[string]string{
		"web":    "foreman start web",
		"worker": "foreman start worker",
		"api":    "honcho start -f Procfile.dev api",
	}
	if len(got.Tasks) != len(want) {
		t.Fatalf("tasks = %+v", got.Tasks)
	}
	for _, task := range got.Tasks {
		if want[task.Name] != task.Command {
			t.Errorf("task %s: command %q, want %q", task.Name, task.Command, want[task.Name])
		}
		if task.Name == "api" && (task.Cwd != "api" || task.File != "api/Procfile.dev" || task.Line != 2 || task.Description != "uvicorn app:main --reload") {
			t.Errorf("api task = %+v", task)
		}
	}
	if len(got.Warnings) != 1 || got.Warnings[0].File != "api/Procfile.dev" || !strings.Contains(got.Warnings[0].Message, "line 3") {
		t.Errorf("warnings = %+v", got.Warnings)
	}
	// The same plugin is a task discoverer: project_overview lists its
	// tasks beside the core discoverers' (the pyproject's).
	ov := structured(t, s.call("project_overview", map[string]any{}))
	runners := map[string]bool{}
	for _, task := range ov["tasks"].([]any) {
		tk := task.(map[string]any)
		runners[tk["runner"].(string)] = true
		if tk["name"] == "web" && tk["command"] != "foreman start web" {
			t.Errorf("project_overview web task = %v", tk)
		}
	}
	if !runners["foreman"] || !runners["honcho"] {
		t.Errorf("project_overview has no Procfile tasks: runners %v\n%v", runners, ov["tasks"])
	}

	// One file asked for, outside the roots: the policy answers, not the plugin.
	s.fail("procfile_tasks", map[string]any{"path": "../Procfile"}, "PATH_DENIED")

	// Without the grant, the same call is denied.
	cliOK(t, home, "plugins", "revoke", "procfile", "fs.read")
	s.fail("procfile_tasks", map[string]any{}, "CAPABILITY_DENIED")
}

// copyExample copies the example's sources to dst and points its go.mod at
// juju's sdk by absolute path, as an author outside juju's tree would.
func copyExample(t *testing.T, src, dst string) {
	t.Helper()
	os.MkdirAll(dst, 0o700)
	for _, f := range []string{"go.mod", "go.sum", "main.go", "procfile.go", "tool.go", "manifest.json"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "go.mod" {
			b = []byte(strings.Replace(string(b), "=> ../../sdk", "=> "+filepath.Join(repoRoot, "sdk"), 1))
		}
		os.WriteFile(filepath.Join(dst, f), b, 0o600)
	}
}

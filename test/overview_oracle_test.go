package test

// The build tools themselves as the oracle of project_overview: each test
// lists a trap-free fixture's tasks with the real tool (go list, make's
// database, npm query, cargo metadata, just --dump, task --list-all, mise
// tasks, mvn validate) and compares. The discoverers never run these tools;
// the tests do, on copies of fixtures that hold no side-effect traps. A
// test skips, saying so, when its tool is not installed (`make deps`
// installs them).

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// oracle returns the path of the tool name, or skips the test.
func oracle(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed, so the overview is not compared with its own listing (`make deps` installs it)", name)
	}
	return p
}

// toolRun runs a tool in dir with env added and returns its stdout; a
// failure fails the test unless mayFail.
func toolRun(t *testing.T, dir string, env []string, mayFail bool, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && !mayFail {
		t.Fatalf("%s %s in %s: %v\n%s%s", name, strings.Join(args, " "), dir, err, out, stderr.String())
	}
	return string(out), err
}

// overviewOf runs project_overview on a fresh copy of the fixture.
func overviewOf(t *testing.T, fixture string) overviewResult {
	t.Helper()
	o, _ := start(t, project(t, fixture), "--mode", "trusted").overview(nil)
	if len(o.Warnings) != 0 {
		t.Errorf("warnings:\n%s", o.warningLines())
	}
	return o
}

// tasksOf lists "cwd | name" of the tasks of runner, sorted.
func tasksOf(o overviewResult, runner string, keep func(name string) bool) []string {
	var out []string
	for _, t := range o.Tasks {
		if t.Runner == runner && (keep == nil || keep(t.Name)) {
			out = append(out, t.Cwd+" | "+t.Name)
		}
	}
	slices.Sort(out)
	return out
}

// sameSet compares two lists as sorted sets.
func sameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	slices.Sort(got)
	slices.Sort(want)
	got, want = slices.Compact(got), slices.Compact(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s:\noverview:\n  %s\nthe tool:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// goEnv runs go without the network, the user's workspace or toolchain
// switches.
var goEnv = []string{"GOFLAGS=", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=", "GO111MODULE=on"}

// go list: the modules of the go.work, the main packages and the tools of
// each; a module the go.work does not use only with GOWORK=off.
func TestOracleGoList(t *testing.T) {
	goBin := oracle(t, "go")
	o := overviewOf(t, "gowork")
	root := project(t, "gowork")
	out, _ := toolRun(t, root, goEnv, false, goBin, "list", "-m", "-f", "{{.Dir}}")
	var want []string
	check := func(dir string, env []string) {
		rel, _ := filepath.Rel(root, dir)
		rel = filepath.ToSlash(rel)
		want = append(want, rel+" | build", rel+" | test", rel+" | vet")
		mains, _ := toolRun(t, dir, env, false, goBin, "list", "-f", `{{if eq .Name "main"}}{{.Dir}}{{end}}`, "./...")
		for _, m := range strings.Fields(mains) {
			p, _ := filepath.Rel(dir, m)
			arg := "."
			if p != "." {
				arg = "./" + filepath.ToSlash(p)
			}
			want = append(want, rel+" | run "+arg)
		}
		// In workspace mode every module's tools run anywhere in the
		// workspace; the overview lists each where it is declared.
		tools, _ := toolRun(t, dir, append(env[:len(env):len(env)], "GOWORK=off"), false, goBin, "list", "tool")
		for _, tl := range strings.Fields(tools) {
			name := path.Base(tl)
			if major := strings.TrimPrefix(name, "v"); major != name && major != "" && major != "0" && major != "1" && strings.Trim(major, "0123456789") == "" {
				name = path.Base(path.Dir(tl)) // example.com/x/v2 is the tool x
			}
			want = append(want, rel+" | tool "+name)
		}
	}
	for _, dir := range strings.Fields(out) {
		check(dir, goEnv)
	}
	legacy := filepath.Join(root, "legacy")
	if _, err := toolRun(t, legacy, goEnv, true, goBin, "list", "./..."); err == nil {
		t.Error("go list in legacy, outside the go.work's modules, succeeded: the fixture no longer shows why GOWORK=off is needed")
	}
	check(legacy, append(goEnv[:len(goEnv):len(goEnv)], "GOWORK=off"))
	// go list does not report //go:generate directives: generate is left out.
	sameSet(t, "go tasks", tasksOf(o, "go", func(name string) bool { return name != "generate" }), want)
}

// make's database (make -pRrq reads the Makefile without running a
// recipe): every task is a target make knows, every phony target with a
// rule is a task, defined in the file make names for its recipe.
func TestOracleMakeDatabase(t *testing.T) {
	makeBin := oracle(t, "make")
	o := overviewOf(t, "make-includes")
	root := project(t, "make-includes")
	out, _ := toolRun(t, root, nil, true, makeBin, "-pRrq")
	if !strings.Contains(out, "# Make data base") {
		t.Fatalf("make -pRrq printed no database:\n%s", out)
	}
	targets, phony, recipeFile := map[string]bool{}, []string{}, map[string]string{}
	notTarget, current := false, ""
	for _, l := range strings.Split(out, "\n") {
		switch {
		case l == "# Not a target:":
			notTarget = true
		case strings.HasPrefix(l, "#  recipe to execute (from '"):
			f := strings.TrimPrefix(l, "#  recipe to execute (from '")
			f, _, _ = strings.Cut(f, "'")
			if _, ok := recipeFile[current]; !ok && current != "" {
				recipeFile[current] = f
			}
		case l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "\t") || strings.Contains(l, " = ") || strings.Contains(l, " := "):
		default:
			name, rest, ok := strings.Cut(l, ":")
			if !ok || strings.ContainsAny(name, " $%") {
				continue
			}
			if name == ".PHONY" {
				phony = append(phony, strings.Fields(rest)...)
			} else if !notTarget {
				targets[name], current = true, name
			}
			notTarget = false
		}
	}
	var want []string
	for _, p := range phony {
		if targets[p] {
			want = append(want, ". | "+p)
		}
	}
	sameSet(t, "make tasks", tasksOf(o, "make", nil), want)
	for _, tk := range o.Tasks {
		if f, ok := recipeFile[tk.Name]; ok && f != tk.File {
			t.Errorf("%s is defined in %s, make runs its recipe from %s", tk.Name, tk.File, f)
		}
	}
}

// npm: the workspaces npm query finds (after an install that runs no
// script) and the scripts npm run lists in each package: a package the
// workspace globs leave out is no task unless it has a lock of its own.
func TestOracleNPMQuery(t *testing.T) {
	npm := oracle(t, "npm")
	o := overviewOf(t, "node-workspaces")
	root := project(t, "node-workspaces")
	env := []string{"npm_config_cache=" + t.TempDir(), "npm_config_update_notifier=false", "npm_config_audit=false", "npm_config_fund=false"}
	toolRun(t, root, env, false, npm, "install", "--ignore-scripts", "--offline")
	out, _ := toolRun(t, root, env, false, npm, "query", ".workspace")
	var wss []struct {
		Location string `json:"location"`
	}
	if err := json.Unmarshal([]byte(out), &wss); err != nil || len(wss) == 0 {
		t.Fatalf("npm query .workspace: %v\n%s", err, out)
	}
	dirs := []string{".", "examples/legacy"} // the root, and a package with its own lock
	for _, w := range wss {
		dirs = append(dirs, w.Location)
	}
	var want []string
	for _, dir := range dirs {
		out, _ := toolRun(t, filepath.Join(root, dir), env, false, npm, "run", "--json")
		// {"name": "command"}, or in a workspace {"pkg": {"name": "command"}}.
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &raw); err != nil {
			t.Fatalf("npm run --json in %s: %v\n%s", dir, err, out)
		}
		scripts := map[string]string{}
		for name, v := range raw {
			var inner map[string]string
			if json.Unmarshal(v, &inner) == nil {
				maps.Copy(scripts, inner)
			} else {
				scripts[name] = string(v)
			}
		}
		for name := range scripts {
			want = append(want, dir+" | "+name)
		}
	}
	sameSet(t, "npm tasks", tasksOf(o, "npm", nil), want)
}

// cargo metadata: the members of the workspace, their binaries and
// examples (with required features), an excluded crate on its own, a
// crate cargo refuses.
func TestOracleCargoMetadata(t *testing.T) {
	cargo := oracle(t, "cargo")
	o, _ := start(t, project(t, "cargo-workspace"), "--mode", "trusted").overview(nil)
	root := project(t, "cargo-workspace")
	type target struct {
		Kind             []string `json:"kind"`
		Name             string   `json:"name"`
		RequiredFeatures []string `json:"required-features"`
	}
	meta := func(dir string) []string {
		out, _ := toolRun(t, dir, []string{"CARGO_NET_OFFLINE=true"}, false, cargo, "metadata", "--no-deps", "--format-version", "1", "--offline")
		var m struct {
			Packages []struct {
				Name    string   `json:"name"`
				Targets []target `json:"targets"`
			} `json:"packages"`
		}
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("cargo metadata in %s: %v", dir, err)
		}
		var out2 []string
		for _, p := range m.Packages {
			out2 = append(out2, "package "+p.Name)
			for _, tg := range p.Targets {
				if k := tg.Kind[0]; k == "bin" || k == "example" {
					what := map[string]string{"bin": "binary", "example": "example"}[k]
					out2 = append(out2, fmt.Sprintf("%s %s of package %s%s", what, tg.Name, p.Name, featureNote(tg.RequiredFeatures)))
				}
			}
		}
		return out2
	}
	want := append(meta(root), meta(filepath.Join(root, "crates/experimental"))...)
	if _, err := toolRun(t, filepath.Join(root, "stray"), nil, true, cargo, "metadata", "--no-deps", "--format-version", "1", "--offline"); err == nil {
		t.Error("cargo accepted stray/, which the fixture means it to refuse")
	}
	// One line per package (from its build task) and per binary and
	// example (from its run task), as the descriptions name them.
	var got []string
	for _, tk := range o.Tasks {
		d := tk.Description
		switch {
		case tk.Runner != "cargo":
		case strings.HasPrefix(d, "package "):
			if strings.HasPrefix(tk.Name, "build") {
				got = append(got, d)
			}
		case strings.HasPrefix(d, "binary "), strings.HasPrefix(d, "example "):
			if _, f, ok := strings.Cut(tk.Command, " --features "); ok {
				d += " (features " + strings.Fields(f)[0] + ")"
			}
			got = append(got, d)
		}
	}
	sameSet(t, "cargo packages and targets", got, want)
	if w := o.warningLines(); len(o.Warnings) != 1 || !strings.HasPrefix(w, "stray/Cargo.toml: ") {
		t.Errorf("warnings:\n%s\nwant one, on stray/Cargo.toml", w)
	}
}

func featureNote(fs []string) string {
	if len(fs) == 0 {
		return ""
	}
	return " (features " + strings.Join(fs, ",") + ")"
}

package test

// The oracles of the task runners (just, task, mise) and of Maven; see
// overview_oracle_test.go.

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// just --dump: every public recipe and alias, of imports and of modules.
func TestOracleJustDump(t *testing.T) {
	just := oracle(t, "just")
	for _, fixture := range []string{"just", "just-modules"} {
		t.Run(fixture, func(t *testing.T) {
			o := overviewOf(t, fixture)
			root := project(t, fixture)
			type module struct {
				Recipes map[string]struct {
					Private bool `json:"private"`
				} `json:"recipes"`
				Aliases map[string]struct {
					Attributes []any `json:"attributes"`
				} `json:"aliases"`
				Modules map[string]json.RawMessage `json:"modules"`
			}
			var want []string
			var walk func(cwd string, raw []byte, prefix string)
			walk = func(cwd string, raw []byte, prefix string) {
				var m module
				if err := json.Unmarshal(raw, &m); err != nil {
					t.Fatalf("just --dump: %v", err)
				}
				for name, r := range m.Recipes {
					if !r.Private {
						want = append(want, cwd+" | "+prefix+name)
					}
				}
				for name, a := range m.Aliases {
					if !strings.HasPrefix(name, "_") && !strings.Contains(fmt.Sprint(a.Attributes), "private") {
						want = append(want, cwd+" | "+prefix+name)
					}
				}
				for name, sub := range m.Modules {
					walk(cwd, sub, prefix+name+"::")
				}
			}
			cwds := map[string]bool{}
			for _, tk := range o.Tasks {
				if tk.Runner == "just" && !cwds[tk.Cwd] {
					cwds[tk.Cwd] = true
					out, _ := toolRun(t, filepath.Join(root, tk.Cwd), nil, false, just, "--dump", "--dump-format", "json")
					walk(tk.Cwd, []byte(out), "")
				}
			}
			sameSet(t, "just recipes and aliases", tasksOf(o, "just", nil), want)
		})
	}
}

// task --list-all: the name, file and line of every task, included
// Taskfiles' too, from each folder the overview lists tasks in.
func TestOracleTaskList(t *testing.T) {
	taskBin := oracle(t, "task")
	for _, fixture := range []string{"taskfile", "taskfile-includes"} {
		t.Run(fixture, func(t *testing.T) {
			o := overviewOf(t, fixture)
			root := project(t, fixture)
			var got, want []string
			cwds := map[string]bool{}
			for _, tk := range o.Tasks {
				if tk.Runner == "task" {
					got = append(got, fmt.Sprintf("%s | %s | %s:%d", tk.Cwd, tk.Name, tk.File, tk.Line))
					cwds[tk.Cwd] = true
				}
			}
			for cwd := range cwds {
				out, _ := toolRun(t, filepath.Join(root, cwd), nil, false, taskBin, "--list-all", "--json")
				var l struct {
					Tasks []struct {
						Name     string `json:"name"`
						Location struct {
							Taskfile string `json:"taskfile"`
							Line     int    `json:"line"`
						} `json:"location"`
					} `json:"tasks"`
				}
				if err := json.Unmarshal([]byte(out), &l); err != nil {
					t.Fatalf("task --list-all --json in %s: %v\n%s", cwd, err, out)
				}
				for _, tk := range l.Tasks {
					rel, _ := filepath.Rel(root, tk.Location.Taskfile)
					want = append(want, fmt.Sprintf("%s | %s | %s:%d", cwd, tk.Name, filepath.ToSlash(rel), tk.Location.Line))
				}
			}
			sameSet(t, "tasks", got, want)
		})
	}
}

// mise tasks ls: the [tasks] and file tasks of each config root, in a
// private home so that no user configuration takes part.
func TestOracleMiseTasks(t *testing.T) {
	mise := oracle(t, "mise")
	o := overviewOf(t, "mise-files")
	root := project(t, "mise-files")
	home := t.TempDir()
	env := []string{"HOME=" + home, "MISE_TRUSTED_CONFIG_PATHS=" + root, "MISE_YES=1", "MISE_DATA_DIR=" + home + "/data",
		"MISE_STATE_DIR=" + home + "/state", "MISE_CACHE_DIR=" + home + "/cache", "MISE_CONFIG_DIR=" + home + "/config"}
	cwds := map[string]bool{}
	for _, tk := range o.Tasks {
		if tk.Runner == "mise" {
			cwds[tk.Cwd] = true
		}
	}
	var want []string
	for cwd := range cwds {
		dir := filepath.Join(root, cwd)
		out, _ := toolRun(t, dir, env, false, mise, "tasks", "ls", "--json")
		var ts []struct {
			Name   string `json:"name"`
			Source string `json:"source"`
		}
		if err := json.Unmarshal([]byte(out), &ts); err != nil {
			t.Fatalf("mise tasks ls --json in %s: %v\n%s", cwd, err, out)
		}
		for _, tk := range ts {
			src := tk.Source
			if !filepath.IsAbs(src) {
				src = filepath.Join(dir, src)
			}
			rel, _ := filepath.Rel(root, src)
			rel = filepath.ToSlash(rel)
			owner := "."
			for c := range cwds {
				if c != "." && strings.HasPrefix(rel, c+"/") {
					owner = c
				}
			}
			if owner == cwd { // tasks a parent folder lends are listed there
				want = append(want, cwd+" | "+tk.Name)
			}
		}
	}
	sameSet(t, "mise tasks", tasksOf(o, "mise", nil), want)
}

// mvn validate (offline, no plugin bound): every module the tasks name
// with -pl is in the reactor and every profile they name exists; a module
// that only a profile adds is not.
func TestOracleMavenReactor(t *testing.T) {
	mvn := oracle(t, "mvn")
	o := overviewOf(t, "maven-reactor")
	root := project(t, "maven-reactor")
	var modules, profiles []string
	for _, tk := range o.Tasks {
		f := strings.Fields(tk.Command)
		for i := 0; i+1 < len(f); i++ {
			switch f[i] {
			case "-pl":
				modules = append(modules, f[i+1])
			case "-P":
				profiles = append(profiles, f[i+1])
			}
		}
	}
	slices.Sort(modules)
	modules = slices.Compact(modules)
	if len(modules) == 0 || len(profiles) == 0 {
		t.Fatalf("no -pl or -P tasks:\n%s", o.taskLines())
	}
	env := []string{"MAVEN_OPTS=-Dmaven.repo.local=" + t.TempDir()}
	toolRun(t, root, env, false, mvn, "-o", "-B", "-q", "-pl", strings.Join(modules, ","), "validate")
	out, _ := toolRun(t, root, env, false, mvn, "-o", "-B", "-P", strings.Join(profiles, ","), "validate")
	if strings.Contains(out, "could not be activated") {
		t.Errorf("a profile of the tasks does not exist:\n%s", out)
	}
	if _, err := toolRun(t, root, env, true, mvn, "-o", "-B", "-q", "-pl", "bench", "validate"); err == nil {
		t.Error("mvn -pl bench succeeded: the fixture no longer shows a module only a profile adds")
	}
}

package taskfile

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestDiscover(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "taskfile"))
	res := Discover(fsys, []string{"Taskfile.yml", "docs/Taskfile.yml"})
	tasktest.Check(t, res, `
build | task | task build | . | Taskfile.yml:7 | build | Build the binary
test | task | task test | . | Taskfile.yml:11 | test | Run all the tests
fmt | task | task fmt | . | Taskfile.yml:19 | lint
docs:serve | task | task docs:serve | . | docs/Taskfile.yml:4 | run | Serve the docs
serve | task | task serve | docs | docs/Taskfile.yml:4 | run | Serve the docs
`, "")
}

// Includes: a folder, a file with its own dir, nested, optional and
// missing, internal, flattened with excludes.
func TestIncludes(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "taskfile-includes"))
	res := Discover(fsys, []string{"Taskfile.yml"})
	tasktest.Check(t, res, `
default | task | task default | . | Taskfile.yml:25 | other | Build and check everything
docs:serve | task | task docs:serve | . | docs/Taskfile.yml:4 | run | Serve the docs
build:all | task | task build:all | . | taskfiles/build.yml:4 | build | Build every binary (runs in src)
lib:test | task | task lib:test | . | lib/Taskfile.yml:7 | test | Test the library
lib:sub:check | task | task lib:sub:check | . | lib/sub/Taskfile.yml:4 | lint
lint | task | task lint | . | taskfiles/common.yml:4 | lint | Lint everything
`, "")
}

// task refuses a Taskfile whose include is missing and not optional.
func TestBroken(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"Taskfile.yml":   "tasks:\n  a: [\n",
		"b/Taskfile.yml": "version: '3'\nincludes:\n  gone: ./gone\ntasks:\n  x: echo\n",
	}))
	res := Discover(fsys, []string{"Taskfile.yml", "b/Taskfile.yml"})
	tasktest.Check(t, res, "", `
Taskfile.yml: is not valid YAML
b/Taskfile.yml: task refuses this Taskfile: b/Taskfile.yml line 3 includes ./gone, which is not there
`)
}

// Ten files at each of seven levels, each including the ten of the next:
// the Taskfile reads maxFiles of them and warns (10^7 reads before).
func TestIncludeBomb(t *testing.T) {
	inc := func(lvl int) string {
		var b strings.Builder
		b.WriteString("version: '3'\nincludes:\n")
		for i := range 10 {
			fmt.Fprintf(&b, "  i%d: ../l%d/%d.yml\n", i, lvl, i)
		}
		return b.String()
	}
	files := map[string]string{"Taskfile.yml": "version: '3'\nincludes:\n  a: l1/0.yml\ntasks:\n  top: echo\n"}
	for lvl := 1; lvl <= 7; lvl++ {
		body := "version: '3'\n"
		if lvl < 7 {
			body = inc(lvl + 1)
		}
		for i := range 10 {
			files[fmt.Sprintf("l%d/%d.yml", lvl, i)] = body
		}
	}
	fsys := task.DirFS(tasktest.Write(t, files))
	start := time.Now()
	res := Discover(fsys, []string{"Taskfile.yml"})
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %v", d)
	}
	tasktest.Check(t, res, `top | task | task top | . | Taskfile.yml:5 | other`, "l6/2.yml: line 9: the Taskfile includes more than 256 files; l7/6.yml")
}

// A Taskfile including one 3 MiB file 64 times reads task.MaxIncluded of
// it and warns, and the Taskfile beside it keeps its task: each inclusion
// was read and parsed again (256 took the discoverer past its 10 s inside
// wasm, and every Taskfile's tasks were lost).
func TestIncludeAmplification(t *testing.T) {
	var big strings.Builder
	big.WriteString("version: '3'\nvars:\n")
	for big.Len() < 3<<20 {
		fmt.Fprintf(&big, "  V%d: \"%s\"\n", big.Len(), strings.Repeat("x", 60))
	}
	var tf strings.Builder
	tf.WriteString("version: '3'\nincludes:\n")
	for i := range 64 {
		fmt.Fprintf(&tf, "  i%d: ./big.yml\n", i)
	}
	tf.WriteString("tasks:\n  evil: echo\n")
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"legit/Taskfile.yml":     "version: '3'\ntasks:\n  build:\n    desc: legit build\n    cmds: [go build]\n",
		"vendorish/Taskfile.yml": tf.String(),
		"vendorish/big.yml":      big.String(),
	}))
	start := time.Now()
	res := Discover(fsys, []string{"legit/Taskfile.yml", "vendorish/Taskfile.yml"})
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	tasktest.Check(t, res, `
build | task | task build | legit | legit/Taskfile.yml:3 | build | legit build
evil | task | task evil | vendorish | vendorish/Taskfile.yml:68 | other
`, "vendorish/Taskfile.yml: line 4: the Taskfile includes more than 4 MiB, counting a file at each inclusion; vendorish/big.yml and those after it were not read")
}

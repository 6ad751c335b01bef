package makefile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestDiscover(t *testing.T) {
	dir := tasktest.Project(t, "make")
	res := Discover(task.DirFS(dir), []string{"Makefile", "sub/Makefile"})
	tasktest.Check(t, res, `
docs | make | make docs | . | common.mk:3 | other | build the documentation
all | make | make all | . | Makefile:9 | other | build everything
build | make | make build | . | Makefile:12 | build | compile the binary
test | make | make test | . | Makefile:15 | test | run the tests
lint | make | make lint | . | Makefile:19 | lint |
run | make | make run | sub | sub/Makefile:1 | run | start the service
`, "")
	for _, f := range []string{"pwned", "pwned2", "pwned3"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s exists: a $(shell …) ran", f)
		}
	}
}

func TestBrokenInclude(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "Makefile"), []byte("include nope.mk\ninclude ../../etc/passwd\n.PHONY: a\na:\n\ttrue\n"), 0o644)
	res := Discover(task.DirFS(dir), []string{"Makefile", "gone/Makefile"})
	tasktest.Check(t, res, `a | make | make a | . | Makefile:4 | other |`, `
Makefile: the included file nope.mk could not be read
gone/Makefile: could not be read
`)
}

// Includes through variables, globs and $(wildcard …), a missing optional
// include, double-colon rules, and a target defined where its recipe is.
func TestIncludesAndDefinitions(t *testing.T) {
	res := Discover(task.DirFS(tasktest.Project(t, "make-includes")), []string{"Makefile"})
	tasktest.Check(t, res, `
build | make | make build | . | mk/go.mk:3 | build | compile the binary
lint | make | make lint | . | mk/go.mk:6 | lint
dist | make | make dist | . | mk/go.mk:10 | build
docs | make | make docs | . | mk/extra/docs.mk:2 | other | build the documentation
tools | make | make tools | . | mk/tools/tools.mk:3 | other | install the tools
all | make | make all | . | Makefile:13 | other | build everything
test | make | make test | . | Makefile:22 | test | unit and integration tests
clean | make | make clean | . | Makefile:28 | other
`, "")
}

// A $(shell …) or a variable set by a command in an include line is never
// run: the include is not followed.
func TestIncludeNeverRuns(t *testing.T) {
	dir := tasktest.Write(t, map[string]string{
		"Makefile": "A != touch pwned1; echo a.mk\nB := $(shell touch pwned2; echo a.mk)\ninclude $(A)\ninclude $(B)\ninclude $(shell touch pwned3; echo a.mk)\ninclude $(UNSET)/a.mk\n.PHONY: x\nx:\n\ttrue\n",
		"a.mk":     ".PHONY: y\ny:\n\ttrue\n",
	})
	res := Discover(task.DirFS(dir), []string{"Makefile"})
	tasktest.Check(t, res, `x | make | make x | . | Makefile:8 | other`, "")
	for _, f := range []string{"pwned1", "pwned2", "pwned3"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s exists", f)
		}
	}
}

package makefile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// An include whose names expand past the bounds (ten variables that each
// refer ten times to the one before: 10^10 bytes from 663) is not
// followed, with one warning, and the targets are kept; so are those of a
// Makefile that appends to a variable a million times.
func TestExpansionBombs(t *testing.T) {
	bomb, err := os.ReadFile("testdata/bomb.mk")
	if err != nil {
		t.Fatal(err)
	}
	appends := "A = x\n" + strings.Repeat("A += yy\n", 1_000_000) + "include $(A)\n.PHONY: last\nlast:\n\ttrue\n"
	empty := "E0 =\n"
	for i := 1; i <= 9; i++ {
		empty += fmt.Sprintf("E%d = %s\n", i, strings.Repeat(fmt.Sprintf("$(E%d)", i-1), 10))
	}
	empty += "include $(E9) a.mk\ninclude $(E9) a.mk\n.PHONY: e\ne:\n\ttrue\n"
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"Makefile":         string(bomb),
		"appends/Makefile": appends,
		"empty/Makefile":   empty,
		"empty/a.mk":       ".PHONY: a\na:\n\ttrue\n",
	}))
	start := time.Now()
	res := Discover(fsys, []string{"Makefile", "appends/Makefile", "empty/Makefile"})
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("took %v", d)
	}
	tasktest.Check(t, res, `
build | make | make build | . | Makefile:13 | build
last | make | make last | appends | appends/Makefile:1000004 | other
e | make | make e | empty | empty/Makefile:14 | other
`, `
Makefile: line 11: the names expand to more than 1 MiB; the files it names were not read
appends/Makefile: line 1000002: the names expand to more than 1 MiB
empty/Makefile: line 11: expanding the includes' names took more than 16 MiB
`)
}

// make reads the first of GNUmakefile, makefile and Makefile in a folder,
// and no other: the targets of the others are not listed.
func TestFirstMakefileOnly(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"Makefile":     ".PHONY: a\na:\n\ttrue\n",
		"GNUmakefile":  ".PHONY: b\nb:\n\ttrue\n",
		"sub/makefile": ".PHONY: c\nc:\n\ttrue\n",
		"sub/Makefile": ".PHONY: d\nd:\n\ttrue\n",
		"one/Makefile": ".PHONY: e\ne:\n\ttrue\n",
	}))
	res := Discover(fsys, []string{"Makefile", "GNUmakefile", "sub/Makefile", "sub/makefile", "one/Makefile"})
	tasktest.Check(t, res, `
b | make | make b | . | GNUmakefile:2 | other
c | make | make c | sub | sub/makefile:2 | other
e | make | make e | one | one/Makefile:2 | other
`, "")
}

// Names past maxIncludeFiles are not read (each is a host call), a line
// longer than a MiB does not stop the parse, and the targets are kept.
func TestManyIncludesAndLongLines(t *testing.T) {
	names := make([]string, maxIncludeFiles+10)
	for i := range names {
		names[i] = fmt.Sprintf("n%d.mk", i)
	}
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"Makefile": "-include " + strings.Join(names, " ") + "\n# " + strings.Repeat("x", 2<<20) + "\n.PHONY: z\nz:\n\ttrue\n",
	}))
	res := Discover(fsys, []string{"Makefile"})
	tasktest.Check(t, res, `z | make | make z | . | Makefile:4 | other`, "Makefile: line 1: the includes name more than 1000 files")
}

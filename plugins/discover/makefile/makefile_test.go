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

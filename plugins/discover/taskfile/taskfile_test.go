package taskfile

import (
	"testing"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestDiscover(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "taskfile"))
	res := Discover(fsys, []string{"Taskfile.yml"})
	tasktest.Check(t, res, `
build | task | task build | . | Taskfile.yml:7 | build | Build the binary
test | task | task test | . | Taskfile.yml:11 | test | Run all the tests
fmt | task | task fmt | . | Taskfile.yml:19 | lint
`, "")
}

func TestBroken(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{"Taskfile.yml": "tasks:\n  a: [\n"}))
	res := Discover(fsys, []string{"Taskfile.yml"})
	tasktest.Check(t, res, "", `Taskfile.yml: is not valid YAML`)
}

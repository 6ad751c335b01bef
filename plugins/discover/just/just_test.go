package just

import (
	"testing"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestDiscover(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "just"))
	res := Discover(fsys, []string{"justfile"})
	tasktest.Check(t, res, `
build | just | just build | . | justfile:8 | build | build the project
test | just | just test | . | justfile:12 | test | run the tests
lint | just | just lint | . | justfile:22 | lint
`, "")
}

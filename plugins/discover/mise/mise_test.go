package mise

import (
	"testing"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestDiscover(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "mise"))
	res := Discover(fsys, []string{"mise.toml"})
	tasktest.Check(t, res, `
build | mise | mise run build | . | mise.toml:7 | build | Build the site
lint | mise | mise run lint | . | mise.toml:5 | lint | eslint .
test:unit | mise | mise run test:unit | . | mise.toml:15 | test | vitest
`, "")
}

package composer

import (
	"testing"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestDiscover(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "composer"))
	res := Discover(fsys, []string{"composer.json"})
	tasktest.Check(t, res, `
test | composer | composer run-script test | . | composer.json:5 | test | run the PHPUnit suite
lint | composer | composer run-script lint | . | composer.json:6 | lint
serve | composer | composer run-script serve | . | composer.json:7 | run | php -S localhost:8000 -t public
`, "")
}

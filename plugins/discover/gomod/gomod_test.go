package gomod

import (
	"testing"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestWorkspace(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "gowork"))
	// The walk offered go.work and api/go.mod only: tools comes from go.work.
	res := Discover(fsys, []string{"api/go.mod", "go.work"})
	tasktest.Check(t, res, `
build | go | go build ./... | api | api/go.mod:1 | build | module example.com/api
test | go | go test ./... | api | api/go.mod:1 | test | module example.com/api
vet | go | go vet ./... | api | api/go.mod:1 | lint | module example.com/api
build | go | go build ./... | tools | tools/go.mod:2 | build | module example.com/tools
test | go | go test ./... | tools | tools/go.mod:2 | test | module example.com/tools
vet | go | go vet ./... | tools | tools/go.mod:2 | lint | module example.com/tools
generate | go | go generate ./... | tools | tools/go.mod:2 | build | module example.com/tools has //go:generate directives
`, "")
}

func TestBroken(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"go.mod":  "go 1.22\n",
		"go.work": "use ./missing\n",
	}))
	res := Discover(fsys, []string{"go.mod", "go.work"})
	tasktest.Check(t, res, "", `
go.mod: has no module directive
go.work: uses ./missing, which has no go.mod
`)
}

package deno

import (
	"testing"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestDiscoverJSONC(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "deno"))
	res := Discover(fsys, []string{"deno.jsonc", "web/deno.json"})
	tasktest.Check(t, res, `
dev | deno | deno task dev | . | deno.jsonc:4 | run | deno run --watch main.ts
test | deno | deno task test | . | deno.jsonc:7 | test | run the tests
build | deno | deno task build | web | web/deno.json:3 | build | deno run -A build.ts
`, "")
}

func TestBroken(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{"deno.json": "{\n  \"tasks\": {\n    \"a\": \n  }\n}\n"}))
	res := Discover(fsys, []string{"deno.json"})
	tasktest.Check(t, res, "", `deno.json: is not valid JSON (line 4`)
}

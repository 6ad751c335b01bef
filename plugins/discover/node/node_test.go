package node

import (
	"testing"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestNPMWorkspaceWithBOMAndBrokenMember(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "node-npm"))
	res := Discover(fsys, []string{"package.json", "packages/app/package.json", "packages/broken/package.json"})
	tasktest.Check(t, res, `
build | npm | npm run build | . | package.json:7 | build | tsc -b (runs prebuild first)
test | npm | npm run test | . | package.json:8 | test | vitest run
lint | npm | npm run lint | . | package.json:10 | lint | eslint .
start | npm | npm run start | packages/app | packages/app/package.json:4 | run | node index.js
test | npm | npm run test | packages/app | packages/app/package.json:6 | test | node --test (runs pretest first) (then posttest)
`, `packages/broken/package.json: is not valid JSON (line 5`)
}

func TestPNPMDoesNotRunHooks(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "node-pnpm"))
	res := Discover(fsys, []string{"apps/web/package.json", "package.json"})
	tasktest.Check(t, res, `
dev | pnpm | pnpm run dev | apps/web | apps/web/package.json:4 | run | vite
build | pnpm | pnpm run build | apps/web | apps/web/package.json:5 | build | vite build
prebuild | pnpm | pnpm run prebuild | . | package.json:5 | build | echo pre
build | pnpm | pnpm run build | . | package.json:6 | build | turbo run build
dev | pnpm | pnpm run dev | . | package.json:7 | run | turbo run dev
`, "")
}

func TestYarnAndBun(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "node-misc"))
	res := Discover(fsys, []string{"berry/package.json", "classic/package.json", "bun/package.json"})
	tasktest.Check(t, res, `
pretest | yarn | yarn run pretest | berry | berry/package.json:4 | test | echo pre
test | yarn | yarn run test | berry | berry/package.json:5 | test | jest
test | yarn | yarn run test | classic | classic/package.json:4 | test | jest (runs pretest first)
serve | bun | bun run serve | bun | bun/package.json:3 | run | bun run index.ts
`, "")
}

func TestBrokenPNPMWorkspace(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"pnpm-workspace.yaml": "packages: [unclosed\n",
		"package.json":        `{"scripts":{"x":"y"}}`,
	}))
	res := Discover(fsys, []string{"package.json"})
	tasktest.Check(t, res, `x | pnpm | pnpm run x | . | package.json:1 | other | y`, `pnpm-workspace.yaml: is not valid YAML`)
}

func TestPNPMHooksEnabledByNpmrc(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		".npmrc":       "auto-install-peers=true\nenable-pre-post-scripts = true\n",
		"package.json": `{"packageManager":"pnpm@9.0.0","scripts":{"prebuild":"a","build":"b"}}`,
	}))
	res := Discover(fsys, []string{"package.json"})
	tasktest.Check(t, res, `build | pnpm | pnpm run build | . | package.json:1 | build | b (runs prebuild first)`, "")
}

// A workspace member is run by its workspace's manager, even with a stray
// lock file of its own; a package the globs leave out is not a member.
func TestWorkspaceMembers(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"package.json":                  `{"workspaces":{"packages":["apps/*","libs/**","!apps/legacy"]}}`,
		"yarn.lock":                     "",
		".yarnrc.yml":                   "",
		"apps/web/package.json":         `{"scripts":{"dev":"next"}}`,
		"apps/web/package-lock.json":    "{}",
		"apps/legacy/package.json":      `{"scripts":{"dev":"old"}}`,
		"apps/legacy/package-lock.json": "{}",
		"libs/ui/button/package.json":   `{"scripts":{"build":"tsc"}}`,
		"tools/package.json":            `{"scripts":{"gen":"x"}}`,
		"tools/pnpm-lock.yaml":          "",
	}))
	res := Discover(fsys, []string{"package.json", "apps/legacy/package.json", "apps/web/package.json", "libs/ui/button/package.json", "tools/package.json"})
	tasktest.Check(t, res, `
dev | npm | npm run dev | apps/legacy | apps/legacy/package.json:1 | run | old
dev | yarn | yarn run dev | apps/web | apps/web/package.json:1 | run | next
build | yarn | yarn run build | libs/ui/button | libs/ui/button/package.json:1 | build | tsc
gen | pnpm | pnpm run gen | tools | tools/package.json:1 | build | x
`, "")
}

func TestMember(t *testing.T) {
	for _, c := range []struct {
		globs []string
		rel   string
		want  bool
	}{
		{[]string{"packages/*"}, "packages/a", true},
		{[]string{"packages/*"}, "packages/a/b", false},
		{[]string{"packages/**"}, "packages/a/b", true},
		{[]string{"./packages/*/"}, "packages/a", true},
		{[]string{"**"}, "x/y", true},
		{[]string{"packages/*", "!packages/skip"}, "packages/skip", false},
		{nil, "a", false},
	} {
		if got := member(c.globs, c.rel); got != c.want {
			t.Errorf("member(%q, %q) = %v", c.globs, c.rel, got)
		}
	}
}

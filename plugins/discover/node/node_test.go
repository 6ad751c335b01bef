package node

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestNPMWorkspaceWithBOMAndBrokenMember(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "node-npm"))
	res := Discover(fsys, []string{"package.json", "packages/app/package.json", "packages/broken/package.json"})
	tasktest.Check(t, res, `
prebuild | npm | npm run prebuild | . | package.json:6 | build | rm -rf dist (npm runs it before build)
build | npm | npm run build | . | package.json:7 | build | tsc -b (runs prebuild first)
test | npm | npm run test | . | package.json:8 | test | vitest run
postinstall | npm | npm run postinstall | . | package.json:9 | other | touch pwned-npm (lifecycle script of install)
lint | npm | npm run lint | . | package.json:10 | lint | eslint .
start | npm | npm run start | packages/app | packages/app/package.json:4 | run | node index.js
pretest | npm | npm run pretest | packages/app | packages/app/package.json:5 | test | echo before (npm runs it before test)
test | npm | npm run test | packages/app | packages/app/package.json:6 | test | node --test (runs pretest first) (then posttest)
posttest | npm | npm run posttest | packages/app | packages/app/package.json:7 | test | echo after (npm runs it after test)
`, `packages/broken/package.json: is not valid JSON (line 5`)
}

func TestPNPMDoesNotRunHooks(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "node-pnpm"))
	res := Discover(fsys, []string{"apps/web/package.json", "apps/web/test/fixtures/demo/package.json", "package.json"})
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
pretest | yarn | yarn run pretest | classic | classic/package.json:3 | test | echo pre (yarn runs it before test)
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
	tasktest.Check(t, res, `
prebuild | pnpm | pnpm run prebuild | . | package.json:1 | build | a (pnpm runs it before build)
build | pnpm | pnpm run build | . | package.json:1 | build | b (runs prebuild first)
`, "")
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
		{[]string{"**/**/b"}, "b", true},
		{[]string{"a/**/**/b"}, "a/x/y/b", true},
		{[]string{"a/**/b/**"}, "a/b", true},
		{[]string{"a/**/b/**/c"}, "a/c", false},
		{[]string{"*/**/*"}, "a", false},
		{[]string{"**/x/**/y"}, "x/y/x", false},
	} {
		var globs []glob
		for _, g := range c.globs {
			globs = append(globs, newGlob(g))
		}
		if got := member(globs, c.rel); got != c.want {
			t.Errorf("member(%q, %q) = %v", c.globs, c.rel, got)
		}
	}
}

// Negated workspace globs: a package they leave out is no task of the
// project unless it has a lock file of its own; lifecycle scripts are
// tasks, of the kind of the script they wrap or other.
func TestExcludedPackagesAndLifecycleScripts(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "node-workspaces"))
	res := Discover(fsys, []string{"examples/basic/fixtures/bad/package.json", "examples/basic/package.json", "examples/legacy/package.json", "package.json", "packages/core/package.json"})
	tasktest.Check(t, res, `
start | npm | npm run start | examples/basic | examples/basic/package.json:5 | run | echo start basic
start | npm | npm run start | examples/legacy | examples/legacy/package.json:5 | run | echo start legacy
prepare | npm | npm run prepare | . | package.json:6 | other | echo prepare (lifecycle script of install and pack)
prebuild | npm | npm run prebuild | . | package.json:7 | build | echo prebuild (npm runs it before build)
build | npm | npm run build | . | package.json:8 | build | echo build (runs prebuild first)
pretest | npm | npm run pretest | . | package.json:9 | test | echo pretest (npm runs it before test)
test | npm | npm run test | . | package.json:10 | test | echo test (runs pretest first) (then posttest)
posttest | npm | npm run posttest | . | package.json:11 | test | echo posttest (npm runs it after test)
version | npm | npm run version | . | package.json:12 | other | echo version (lifecycle script of version)
build | npm | npm run build | packages/core | packages/core/package.json:5 | build | echo build core
prepublishOnly | npm | npm run prepublishOnly | packages/core | packages/core/package.json:6 | other | echo check (lifecycle script of publish)
test | npm | npm run test | packages/core | packages/core/package.json:7 | test | echo test core
`, "")
}

// yarn 2+ refuses to run a package of its project that is none of its
// workspaces; one with a yarn.lock of its own is a project of its own.
func TestYarnBerryNonMembers(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"package.json":          `{"packageManager":"yarn@4.1.0","workspaces":["apps/*"],"scripts":{"build":"x"}}`,
		".yarnrc.yml":           "",
		"yarn.lock":             "",
		"apps/web/package.json": `{"scripts":{"dev":"next"}}`,
		"docs/package.json":     `{"scripts":{"start":"docusaurus"}}`,
		"sandbox/package.json":  `{"scripts":{"start":"vite"}}`,
		"sandbox/yarn.lock":     "",
	}))
	res := Discover(fsys, []string{"apps/web/package.json", "docs/package.json", "package.json", "sandbox/package.json"})
	tasktest.Check(t, res, `
dev | yarn | yarn run dev | apps/web | apps/web/package.json:1 | run | next
build | yarn | yarn run build | . | package.json:1 | build | x
start | yarn | yarn run start | sandbox | sandbox/package.json:1 | run | vite
`, "")
}

// A workspace glob of many "**" is matched against a deep package in
// time bounded by the package's depth (the recursive match tried every
// split at every "**": 25 of them and a package 14 folders deep took
// past the discoverer's 10 s), and a workspace of more globs than
// maxGlobs is read to that bound with a warning.
func TestWorkspaceGlobBombs(t *testing.T) {
	deep := strings.Repeat("d/", 14) + "package.json"
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"package.json": `{"workspaces":["` + strings.Repeat("**/", 25) + `nomatch"]}`,
		deep:           `{"scripts":{"x":"y"}}`,
	}))
	start := time.Now()
	res := Discover(fsys, []string{"package.json", deep})
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
	tasktest.Check(t, res, "x | npm | npm run x | "+strings.TrimSuffix(deep, "/package.json")+" | "+deep+":1 | other | y", "")

	var globs []string
	for i := range maxGlobs + 1 {
		globs = append(globs, fmt.Sprintf(`"p%d"`, i))
	}
	fsys = task.DirFS(tasktest.Write(t, map[string]string{
		"package.json":       `{"workspaces":[` + strings.Join(globs, ",") + `]}`,
		"yarn.lock":          "",
		"p0/package.json":    `{"scripts":{"a":"b"}}`,
		"p1000/package.json": `{"scripts":{"c":"d"}}`,
	}))
	res = Discover(fsys, []string{"p0/package.json", "p1000/package.json", "package.json"})
	tasktest.Check(t, res, `
a | yarn | yarn run a | p0 | p0/package.json:1 | other | b
c | yarn | yarn run c | p1000 | p1000/package.json:1 | other | d
`, "package.json: names 1001 workspace globs; the first 1000 are read")
}

// counting counts the reads of each file.
type counting struct {
	task.FS
	reads map[string]int
}

func (c counting) ReadFile(name string) ([]byte, error) {
	c.reads[name]++
	return c.FS.ReadFile(name)
}

// A folder's lock files and .npmrc are read once for all the packages
// below it: a .npmrc of megabytes was read again for every package.
func TestManagerReadOnce(t *testing.T) {
	files := map[string]string{"pnpm-lock.yaml": "", ".npmrc": "enable-pre-post-scripts=true\n" + strings.Repeat("# x\n", 1000)}
	var offered []string
	for i := range 50 {
		f := fmt.Sprintf("p%d/package.json", i)
		files[f] = `{"scripts":{"x":"y"}}`
		offered = append(offered, f)
	}
	c := counting{task.DirFS(tasktest.Write(t, files)), map[string]int{}}
	res := Discover(c, offered)
	if len(res.Tasks) != 50 || res.Tasks[0].Runner != "pnpm" || c.reads[".npmrc"] != 1 {
		t.Errorf("%d tasks by %s; .npmrc read %d times", len(res.Tasks), res.Tasks[0].Runner, c.reads[".npmrc"])
	}
}

package just

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestDiscover(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "just"))
	res := Discover(fsys, []string{"justfile"})
	tasktest.Check(t, res, `
b | just | just b | . | justfile:5 | build | alias for build
build | just | just build | . | justfile:8 | build | build the project
test | just | just test | . | justfile:12 | test | run the tests
lint | just | just lint | . | justfile:22 | lint
`, "")
}

// Imports (optional ones missing), modules by name and by path, modules
// within modules, aliases; private recipes, aliases and modules left out.
func TestImportsModulesAndAliases(t *testing.T) {
	res := Discover(task.DirFS(tasktest.Project(t, "just-modules")), []string{"justfile"})
	tasktest.Check(t, res, `
b | just | just b | . | justfile:9 | build | alias for build
t | just | just t | . | justfile:10 | test | alias for test
build | just | just build | . | justfile:16 | build | build the service
test | just | just test | . | justfile:19 | test
fmt | just | just fmt | . | just/common.just:2 | lint | format the sources
docs::build | just | just docs::build | . | docs/mod.just:2 | build | build the book
docs::serve | just | just docs::serve | . | docs/mod.just:6 | run | serve the book
ops::d | just | just ops::d | . | ops/deploy.just:3 | other | alias for ops::deploy
ops::deploy | just | just ops::deploy | . | ops/deploy.just:6 | other | ship it
ops::db::migrate | just | just ops::db::migrate | . | ops/db/justfile:1 | other
`, "")
}

// just refuses a justfile that defines a recipe twice, unless it allows
// duplicates; a missing import that is not optional is a warning.
func TestDuplicatesAndMissingImports(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"a/justfile": "import 'x.just'\nbuild:\n    true\n",
		"a/x.just":   "build:\n    false\n",
		"b/justfile": "set allow-duplicate-recipes\nimport 'x.just'\nbuild:\n    true\n",
		"b/x.just":   "build:\n    false\n",
		"c/justfile": "import 'gone.just'\nmod nope\nrun:\n    true\n",
	}))
	res := Discover(fsys, []string{"a/justfile", "b/justfile", "c/justfile"})
	tasktest.Check(t, res, `
build | just | just build | b | b/justfile:3 | build
run | just | just run | c | c/justfile:3 | run
`, `
a/justfile: the recipe build is defined at a/justfile:2 and again at a/x.just:1
c/justfile: line 1: the import gone.just was not found
c/justfile: line 2: the mod nope was not found
`)
}

// Ten files at each of seven levels, each importing the ten of the next:
// the justfile reads maxFiles of them and warns (10^7 reads before).
func TestImportBomb(t *testing.T) {
	files := map[string]string{"justfile": "set allow-duplicate-recipes\nimport 'l1/0.just'\nimport 'l1/1.just'\ntop:\n\techo\n"}
	for lvl := 1; lvl <= 7; lvl++ {
		var body strings.Builder
		if lvl < 7 {
			for i := range 10 {
				fmt.Fprintf(&body, "import '../l%d/%d.just'\n", lvl+1, i)
			}
		}
		for i := range 10 {
			files[fmt.Sprintf("l%d/%d.just", lvl, i)] = body.String()
		}
	}
	fsys := task.DirFS(tasktest.Write(t, files))
	start := time.Now()
	res := Discover(fsys, []string{"justfile"})
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %v", d)
	}
	tasktest.Check(t, res, `top | just | just top | . | justfile:4 | other`, "l6/2.just: line 7: the justfile imports more than 256 files; l7/6.just")
}

// A justfile importing one 3 MiB file 64 times reads task.MaxIncluded of
// it and warns: each import was read and parsed again.
func TestImportAmplification(t *testing.T) {
	var big strings.Builder
	for big.Len() < 3<<20 {
		fmt.Fprintf(&big, "v%d := \"%s\"\n", big.Len(), strings.Repeat("x", 60))
	}
	var jf strings.Builder
	jf.WriteString("set allow-duplicate-recipes\n")
	for range 64 {
		jf.WriteString("import 'big.just'\n")
	}
	jf.WriteString("top:\n\techo\n")
	fsys := task.DirFS(tasktest.Write(t, map[string]string{"justfile": jf.String(), "big.just": big.String()}))
	start := time.Now()
	res := Discover(fsys, []string{"justfile"})
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	tasktest.Check(t, res, `top | just | just top | . | justfile:66 | other`, "justfile: line 3: the justfile imports more than 4 MiB, counting a file at each import; big.just and those after it were not read")
}

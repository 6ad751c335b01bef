package gomod

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

// The walk offered go.work, api/go.mod and legacy/go.mod: tools comes
// from go.work, legacy is outside the workspace.
func TestWorkspace(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "gowork"))
	res := Discover(fsys, []string{"api/go.mod", "go.work", "legacy/go.mod"})
	tasktest.Check(t, res, `
build | go | go build ./... | api | api/go.mod:1 | build | module example.com/api
test | go | go test ./... | api | api/go.mod:1 | test | module example.com/api
vet | go | go vet ./... | api | api/go.mod:1 | lint | module example.com/api
generate | go | go generate ./... | api | api/go.mod:1 | build | module example.com/api: runs the //go:generate directives (the first in api/internal/gen/gen.go:4)
run ./cmd/api | go | go run ./cmd/api | api | api/cmd/api/main.go:2 | run | main package example.com/api/cmd/api
build | go | go build ./... | tools | tools/go.mod:2 | build | module example.com/tools
test | go | go test ./... | tools | tools/go.mod:2 | test | module example.com/tools
vet | go | go vet ./... | tools | tools/go.mod:2 | lint | module example.com/tools
generate | go | go generate ./... | tools | tools/go.mod:2 | build | module example.com/tools: runs the //go:generate directives (the first in tools/gen.go:3)
run ./cmd/enumgen | go | go run ./cmd/enumgen | tools | tools/cmd/enumgen/main.go:2 | run | main package example.com/tools/cmd/enumgen
run ./cmd/lint/v2 | go | go run ./cmd/lint/v2 | tools | tools/cmd/lint/v2/main.go:2 | run | main package example.com/tools/cmd/lint/v2
tool enumgen | go | go tool enumgen | tools | tools/go.mod:6 | build | tool example.com/tools/cmd/enumgen
tool lint | go | go tool lint | tools | tools/go.mod:9 | lint | tool example.com/tools/cmd/lint/v2
build | go | GOWORK=off go build ./... | legacy | legacy/go.mod:1 | build | module example.com/legacy (not used by the go.work above it)
test | go | GOWORK=off go test ./... | legacy | legacy/go.mod:1 | test | module example.com/legacy (not used by the go.work above it)
vet | go | GOWORK=off go vet ./... | legacy | legacy/go.mod:1 | lint | module example.com/legacy (not used by the go.work above it)
run . | go | GOWORK=off go run . | legacy | legacy/main.go:2 | run | main package example.com/legacy
`, "")
}

func TestBroken(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"go.mod":  "go 1.22\n",
		"go.work": "use ./missing\n",
	}))
	res := Discover(fsys, []string{"go.mod", "go.work"})
	tasktest.Check(t, res, "", `
go.work: line 1: uses ./missing, which has no go.mod
go.mod: has no module directive
`)
}

func TestToolName(t *testing.T) {
	for pkg, want := range map[string]string{
		"golang.org/x/tools/cmd/stringer": "stringer", "example.com/x/v2": "x", "example.com/v1": "v1", "v2": "v2", "a/v0": "v0",
	} {
		if got := toolName(pkg); got != want {
			t.Errorf("toolName(%q) = %q, want %q", pkg, got, want)
		}
	}
}

// wantedLines are lines a search may find, wanted or not.
var wantedLines = []string{
	"package main", "package main ", "package main\t// tool", "package main // +build", "package mainly", "package main;",
	"package main /* x */", "package main\n// x", "package main\nx", "package main //x\ny", "package  main", "package main\f",
	"//go:generate go run gen.go", "//go:generate\tstringer", "//go:generate", "//go:generatex", "//go:generate\n",
	"//go:build ignore", "//go:build !linux && ignore", "//go:build ignored", "//go:build unignore", "//go:build (ignore)",
	"//go:build\tignore", "//go:buildignore", "//go:build x\nignore", "//go:build _ignore", "//go:build ignore_x", "//go:build 9ignore",
	"// package main", "", "package", "//go:build ignore\r",
}

// wanted is linePattern, by hand.
func TestWantedIsThePattern(t *testing.T) {
	re := regexp.MustCompile(linePattern)
	for _, l := range wantedLines {
		if got, want := wanted(l), re.MatchString(l); got != want {
			t.Errorf("%q: wanted %v, the pattern says %v", l, got, want)
		}
	}
}

func FuzzWanted(f *testing.F) {
	for _, l := range wantedLines {
		f.Add(l)
	}
	re := regexp.MustCompile(linePattern)
	f.Fuzz(func(t *testing.T, l string) {
		if got, want := wanted(l), re.MatchString(l); got != want {
			t.Errorf("%q: wanted %v, the pattern says %v", l, got, want)
		}
	})
}

// skipRecorder is a DirFS that notes the folders each Grep skips.
type skipRecorder struct {
	task.DirFS
	skips [][]string
}

func (r *skipRecorder) Grep(dir, name, re string, skip []string) ([]task.Hit, error) {
	r.skips = append(r.skips, skip)
	return r.DirFS.Grep(dir, name, re, skip)
}

// The search does not enter the folders go never builds from (testdata,
// names starting with . or _), except those that hold a module of their
// own: Go's tree keeps modules in _asm and _gen folders.
func TestNotBuiltFolders(t *testing.T) {
	fsys := &skipRecorder{DirFS: task.DirFS(tasktest.Write(t, map[string]string{
		"go.mod":                    "module example.com/m\n",
		"main.go":                   "package main\n",
		"testdata/x/main.go":        "package main\n",
		".cache/main.go":            "package main\n",
		"_tools/main.go":            "package main\n",
		"_gen/go.mod":               "module example.com/gen\n",
		"_gen/main.go":              "package main\n",
		"_gen/testdata/y/main.go":   "package main\n",
		"cmd/tool/testdata/main.go": "package main\n",
	}))}
	res := Discover(fsys, []string{"_gen/go.mod", "go.mod"})
	tasktest.Check(t, res, `
build | go | go build ./... | _gen | _gen/go.mod:1 | build | module example.com/gen
test | go | go test ./... | _gen | _gen/go.mod:1 | test | module example.com/gen
vet | go | go vet ./... | _gen | _gen/go.mod:1 | lint | module example.com/gen
run . | go | go run . | _gen | _gen/main.go:1 | run | main package example.com/gen
build | go | go build ./... | . | go.mod:1 | build | module example.com/m
test | go | go test ./... | . | go.mod:1 | test | module example.com/m
vet | go | go vet ./... | . | go.mod:1 | lint | module example.com/m
run . | go | go run . | . | main.go:1 | run | main package example.com/m
`, "")
	if len(fsys.skips) != 1 || !slices.Equal(fsys.skips[0], []string{"testdata", ".*"}) {
		t.Fatalf("the search skipped %q, want testdata and .* (a module lives in _gen)", fsys.skips)
	}
}

// Folder and tool names come from the repository: each is one quoted
// word of the command, a folder with a space too (ws/inj of the review).
func TestNamesAreQuoted(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"go.mod":                       "module example.com/m\n\ngo 1.24\n\ntool example.com/x/$(touch${IFS}pwned)\ntool (\n  example.com/y/a;id;b\n  example.com/z/-x\n)\n",
		"cmd/x;touch ${HOME}x/main.go": "package main\nfunc main(){}\n",
		"cmd/my tool/main.go":          "package main\nfunc main(){}\n",
	}))
	res := Discover(fsys, []string{"go.mod"})
	tasktest.Check(t, res, `
build | go | go build ./... | . | go.mod:1 | build | module example.com/m
test | go | go test ./... | . | go.mod:1 | test | module example.com/m
vet | go | go vet ./... | . | go.mod:1 | lint | module example.com/m
run ./cmd/my tool | go | go run './cmd/my tool' | . | cmd/my tool/main.go:1 | run | main package example.com/m/cmd/my tool
run ./cmd/x;touch ${HOME}x | go | go run './cmd/x;touch ${HOME}x' | . | cmd/x;touch ${HOME}x/main.go:1 | run | main package example.com/m/cmd/x;touch ${HOME}x
tool $(touch${IFS}pwned) | go | go tool '$(touch${IFS}pwned)' | . | go.mod:5 | other | tool example.com/x/$(touch${IFS}pwned)
tool a;id;b | go | go tool 'a;id;b' | . | go.mod:7 | other | tool example.com/y/a;id;b
`, "")
}

// A go.work's use directives name modules the walk did not offer: the
// first maxModules are read, then a warning.
func TestManyModules(t *testing.T) {
	files := map[string]string{}
	var work strings.Builder
	work.WriteString("go 1.24\n\nuse (\n")
	for i := range 1005 {
		fmt.Fprintf(&work, "\t./m%d\n", i)
		files[fmt.Sprintf("m%d/go.mod", i)] = fmt.Sprintf("module example.com/m%d\n", i)
	}
	work.WriteString(")\n")
	files["go.work"] = work.String()
	res := Discover(task.DirFS(tasktest.Write(t, files)), []string{"go.work"})
	if len(res.Tasks) != 3000 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "past the first 1000 read") {
		t.Errorf("%d tasks, warnings %+v", len(res.Tasks), res.Warnings)
	}
}

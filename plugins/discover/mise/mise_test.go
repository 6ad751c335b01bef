package mise

import (
	"fmt"
	"strings"
	"testing"
	"time"

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

// File tasks of the default folders (a table of mise.toml wins over a file
// task of the same name), nested names, _default, #MISE comments, hidden,
// not executable and dot files left out; [task_config] includes replace
// the default folders.
func TestFileTasks(t *testing.T) {
	files := []string{
		".config/mise/tasks/config", ".mise/tasks/db/migrate", "mise-tasks/.draft", "mise-tasks/build.sh", "mise-tasks/notes",
		"mise-tasks/secret", "mise-tasks/test/_default", "mise-tasks/test/unit", "mise.toml", "web/mise-tasks/ignored", "web/mise.toml",
	}
	res := Discover(task.DirFS(tasktest.Project(t, "mise-files")), files)
	tasktest.Check(t, res, `
build | mise | mise run build | . | mise.toml:5 | build | Build from mise.toml: the table wins over mise-tasks/build.sh
lint | mise | mise run lint | . | mise.toml:3 | lint | eslint .
config | mise | mise run config | . | .config/mise/tasks/config:1 | other | Print the config
db:migrate | mise | mise run db:migrate | . | .mise/tasks/db/migrate:1 | other | Migrate the database
test | mise | mise run test | . | mise-tasks/test/_default:1 | test | Run every test
test:unit | mise | mise run test:unit | . | mise-tasks/test/unit:1 | test | Run the unit tests
deploy | mise | mise run deploy | web | web/scripts/deploy.sh:1 | other | Deploy the site
release:notes | mise | mise run release:notes | web | web/scripts/release/notes:1 | build
`, "")
}

// listing counts the folders listed.
type listing struct {
	task.FS
	lists *int
}

func (l listing) List(dir string) []string {
	*l.lists++
	return l.FS.List(dir)
}

// The walk of [task_config] includes lists at most maxIncludeFiles
// folders: a tree of empty folders was listed whole, each through the
// host.
func TestIncludeWalkBounded(t *testing.T) {
	files := map[string]string{"mise.toml": "[task_config]\nincludes = [\"tasks\"]\n"}
	for i := range maxIncludeFiles + 100 {
		files[fmt.Sprintf("tasks/d%d/e/.keep", i)] = ""
	}
	n := 0
	Discover(listing{task.DirFS(tasktest.Write(t, files)), &n}, []string{"mise.toml"})
	if n > maxIncludeFiles {
		t.Errorf("%d folders listed", n)
	}
}

// A mise.toml of 150,000 tasks is refused at once with a warning: the
// TOML decoder compares each key with every one before it (27 s of CPU
// natively, past the discoverer's 10 s inside wasm).
func TestManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("[tasks]\n")
	for i := range 150_000 {
		fmt.Fprintf(&b, "t%d = \"x\"\n", i)
	}
	fsys := task.DirFS(tasktest.Write(t, map[string]string{"mise.toml": b.String()}))
	start := time.Now()
	res := Discover(fsys, []string{"mise.toml"})
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
	tasktest.Check(t, res, "", "mise.toml: has more than 5000 keys")
}

package python

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestDiscover(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "python"))
	res := Discover(fsys, []string{"noxfile.py", "pyproject.toml", "tox.ini", "poetry-app/pyproject.toml", "poetry-app/setup.cfg", "broken/pyproject.toml"})
	tasktest.Check(t, res, `
pkg-admin | uv | uv run pkg-admin | . | pyproject.toml:7 | run | console script pkg.admin:run
pkg-cli | uv | uv run pkg-cli | . | pyproject.toml:6 | run | console script pkg.cli:main
pytest | uv | uv run pytest | . | pyproject.toml:9 | test | run the tests
docs | uv | uv run poe docs | . | pyproject.toml:16 | other | build the docs
fmt | uv | uv run poe fmt | . | pyproject.toml:13 | lint | ruff format .
cov | hatch | hatch run cov | . | pyproject.toml:21 | test |
lint:check | hatch | hatch run lint:check | . | pyproject.toml:24 | lint |
py311 | tox | tox -e py311 | . | tox.ini:2 | test | tox environment
lint | tox | tox -e lint | . | tox.ini:2 | lint | tox environment
docs | tox | tox -e docs | . | tox.ini:7 | other | tox environment
tests | nox | nox -s tests | . | noxfile.py:7 | test | nox session
typecheck | nox | nox -s typecheck | . | noxfile.py:12 | lint | nox session
serve | poetry | poetry run serve | poetry-app | poetry-app/pyproject.toml:5 | run | console script app:serve
pytest | poetry | poetry run pytest | poetry-app | poetry-app/setup.cfg:4 | test | run the tests
`, `broken/pyproject.toml: is not valid TOML (line 1`)
}

func TestToxInPyproject(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"legacy/pyproject.toml": "[tool.tox]\nlegacy_tox_ini = \"\"\"\n[tox]\nenvlist = py312\n[testenv:lint]\ncommands = ruff check\n\"\"\"\n",
		"native/pyproject.toml": "[tool.tox]\nenv_list = [\"3.13\", \"type\"]\n\n[tool.tox.env.type]\ncommands = [[\"mypy\", \"src\"]]\n\n[tool.tox.env.docs]\ncommands = [[\"sphinx-build\"]]\n",
		"native/poetry.lock":    "",
	}))
	res := Discover(fsys, []string{"legacy/pyproject.toml", "native/pyproject.toml"})
	tasktest.Check(t, res, `
py312 | tox | tox -e py312 | legacy | legacy/pyproject.toml:2 | test | tox environment
lint | tox | tox -e lint | legacy | legacy/pyproject.toml:2 | lint | tox environment
3.13 | tox | tox -e 3.13 | native | native/pyproject.toml:2 | test | tox environment
type | tox | tox -e type | native | native/pyproject.toml:4 | lint | tox environment
docs | tox | tox -e docs | native | native/pyproject.toml:7 | other | tox environment
`, "")
}

// A console script's name is one quoted word of the command (ws/inj of
// the review).
func TestScriptNamesAreQuoted(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"pyproject.toml": "[project]\nname=\"p\"\nversion=\"0\"\n[project.scripts]\n\"x;touch pwned\" = \"m:f\"\n\"ok\" = \"m:g\"\n\"-c\" = \"m:h\"\n",
	}))
	res := Discover(fsys, []string{"pyproject.toml"})
	tasktest.Check(t, res, `
ok | python | ok | . | pyproject.toml:6 | run | console script m:g
x;touch pwned | python | 'x;touch pwned' | . | pyproject.toml:5 | run | console script m:f
`, `pyproject.toml: line 7: the task -c is not listed: its name starts with "-"`)
}

// Sessions are found line by line: arguments over several lines, other
// decorators and blank lines before the def; and a noxfile of 200,000
// decorators without a ")" is read in time linear in its size (each was
// read to the end of the file).
func TestNoxSessions(t *testing.T) {
	good := "import nox\n\n@nox.session(\n    python=['3.12'],\n    name='unit',\n)\n@nox.parametrize('x', [1, 2])\n\ndef tests(session):\n    pass\n\n@session\ndef lint(session):\n    pass\n\n@nox.sessionx\ndef not_one(session):\n    pass\n\n@nox.session() + 1\ndef nor_this(session):\n    pass\n"
	bomb := good + strings.Repeat("@session(\n@session\ndef a(s):\n", 200_000)
	fsys := task.DirFS(tasktest.Write(t, map[string]string{"noxfile.py": good, "bomb/noxfile.py": bomb}))
	start := time.Now()
	res := Discover(fsys, []string{"noxfile.py", "bomb/noxfile.py"})
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %v", d)
	}
	tasktest.Check(t, res, `
unit | nox | nox -s unit | . | noxfile.py:3 | other | nox session
lint | nox | nox -s lint | . | noxfile.py:12 | lint | nox session
unit | nox | nox -s unit | bomb | bomb/noxfile.py:3 | other | nox session
lint | nox | nox -s lint | bomb | bomb/noxfile.py:12 | lint | nox session
`, "")
}

// A pyproject.toml of 70,000 table headers and no "=" is refused at once
// with a warning, and the project beside it keeps its tasks: the TOML
// decoder compares each table with every one before it (the discoverer
// ran past its 10 s inside wasm and lost the legit project's script),
// and the bound counted only "=" signs.
func TestManyTableHeaders(t *testing.T) {
	var b strings.Builder
	for i := range 70_000 {
		fmt.Fprintf(&b, "[t%d]\n", i)
	}
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"pyproject.toml":               "[project]\nname = \"app\"\n[project.scripts]\nserve = \"app:main\"\n",
		"third_party/x/pyproject.toml": b.String(),
	}))
	start := time.Now()
	res := Discover(fsys, []string{"pyproject.toml", "third_party/x/pyproject.toml"})
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
	tasktest.Check(t, res, `
serve | python | serve | . | pyproject.toml:4 | run | console script app:main
`, "third_party/x/pyproject.toml: has more than 5000 keys")
}

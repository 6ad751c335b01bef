package python

import (
	"testing"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestDiscover(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "python"))
	res := Discover(fsys, []string{"noxfile.py", "pyproject.toml", "tox.ini", "poetry-app/pyproject.toml", "poetry-app/setup.cfg", "broken/pyproject.toml"})
	tasktest.Check(t, res, `
pkg-admin | python | uv run pkg-admin | . | pyproject.toml:7 | run | console script pkg.admin:run
pkg-cli | python | uv run pkg-cli | . | pyproject.toml:6 | run | console script pkg.cli:main
pytest | pytest | uv run pytest | . | pyproject.toml:9 | test | run the tests
docs | poe | uv run poe docs | . | pyproject.toml:16 | other | build the docs
fmt | poe | uv run poe fmt | . | pyproject.toml:13 | lint | ruff format .
cov | hatch | hatch run cov | . | pyproject.toml:21 | test |
lint:check | hatch | hatch run lint:check | . | pyproject.toml:24 | lint |
py311 | tox | tox -e py311 | . | tox.ini:2 | test | tox environment
lint | tox | tox -e lint | . | tox.ini:2 | lint | tox environment
docs | tox | tox -e docs | . | tox.ini:7 | other | tox environment
tests | nox | nox -s tests | . | noxfile.py:4 | test | nox session
typecheck | nox | nox -s typecheck | . | noxfile.py:9 | lint | nox session
serve | python | poetry run serve | poetry-app | poetry-app/pyproject.toml:5 | run | console script app:serve
pytest | pytest | pytest | poetry-app | poetry-app/setup.cfg:4 | test | run the tests
`, `broken/pyproject.toml: is not valid TOML (line 1`)
}

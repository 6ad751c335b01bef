// Package python finds the tasks of Python projects: the console scripts
// of pyproject.toml ([project.scripts], [tool.poetry.scripts]), pytest
// when it is configured (pytest.ini, [tool.pytest.ini_options],
// tox.ini or setup.cfg), tox environments (tox.ini, or tox's pyproject
// configuration), nox sessions (a static scan of noxfile.py), poe tasks
// and hatch scripts. Commands go through uv or poetry when the project
// uses them.
package python

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"pyproject.toml", "pytest.ini", "setup.cfg", "tox.ini", "noxfile.py"}

type discoverer struct {
	fsys   task.FS
	res    *task.Result
	pytest map[string]bool // folders whose pytest task was added
	poetry map[string]bool // folders of poetry projects
}

// Discover lists the tasks of the Python project files in files.
func Discover(fsys task.FS, files []string) *task.Result {
	d := &discoverer{fsys: fsys, res: task.NewResult(), pytest: map[string]bool{}, poetry: map[string]bool{}}
	// pytest reads its configuration from the first of these that has it.
	rank := map[string]int{"pytest.ini": 0, "pyproject.toml": 1, "tox.ini": 2, "setup.cfg": 3, "noxfile.py": 4}
	files = append([]string(nil), files...)
	sort.SliceStable(files, func(i, j int) bool {
		di, dj := path.Dir(files[i]), path.Dir(files[j])
		if di != dj {
			return di < dj
		}
		return rank[path.Base(files[i])] < rank[path.Base(files[j])]
	})
	for _, f := range files {
		data, ok := d.res.Read(d.fsys, f)
		if !ok {
			continue
		}
		switch path.Base(f) {
		case "pyproject.toml":
			d.pyproject(f, data)
		case "pytest.ini":
			d.ini(f, data, "pytest")
		case "setup.cfg":
			d.ini(f, data, "tool:pytest")
		case "tox.ini":
			d.ini(f, data, "pytest")
			d.toxINI(f, data)
		case "noxfile.py":
			d.nox(f, data)
		}
	}
	return d.res
}

// env is how commands are run in the project's environment: "uv run ",
// "poetry run " or nothing.
func (d *discoverer) env(dir string, poetry bool) string {
	switch {
	case d.fsys.Exists(path.Join(dir, "uv.lock")):
		return "uv run "
	case poetry || d.poetry[dir] || d.fsys.Exists(path.Join(dir, "poetry.lock")):
		return "poetry run "
	}
	return ""
}

// runner is the program that runs a command in the environment env: uv or
// poetry when they wrap it, else program.
func runner(env, program string) string {
	if env == "" {
		return program
	}
	return strings.Fields(env)[0]
}

func (d *discoverer) addPytest(file string, line int, poetry bool) {
	dir := task.Dir(file)
	if d.pytest[dir] {
		return
	}
	d.pytest[dir] = true
	env := d.env(dir, poetry)
	d.res.Add(abi.Task{Name: "pytest", Runner: runner(env, "pytest"), Command: env + "pytest", Cwd: dir, File: file, Line: line, Kind: abi.KindTest, Description: "run the tests"})
}

// pyproject is the subset of pyproject.toml read here.
type pyproject struct {
	Project struct {
		Scripts map[string]any `toml:"scripts"`
	} `toml:"project"`
	Tool struct {
		Poetry *struct {
			Scripts map[string]any `toml:"scripts"`
		} `toml:"poetry"`
		Pytest *struct {
			IniOptions *map[string]any `toml:"ini_options"`
		} `toml:"pytest"`
		Tox *struct {
			LegacyTox string         `toml:"legacy_tox_ini"`
			EnvList   []string       `toml:"env_list"`
			Env       map[string]any `toml:"env"`
		} `toml:"tox"`
		Poe *struct {
			Tasks map[string]any `toml:"tasks"`
		} `toml:"poe"`
		Hatch *struct {
			Envs map[string]struct {
				Scripts map[string]any `toml:"scripts"`
			} `toml:"envs"`
		} `toml:"hatch"`
	} `toml:"tool"`
}

func (d *discoverer) pyproject(file string, data []byte) {
	var p pyproject
	if err := task.UnmarshalTOML(data, &p); err != nil {
		d.res.Warn(file, "%s; its tasks are not listed", tomlError(err))
		return
	}
	ini := task.ParseINI(data)
	dir := task.Dir(file)
	poetry := p.Tool.Poetry != nil
	d.poetry[dir] = poetry
	env := d.env(dir, poetry)
	scripts := func(section string, m map[string]any) {
		for _, name := range sortedKeys(m) {
			target, _ := m[name].(string)
			d.res.Add(abi.Task{Name: name, Runner: runner(env, "python"), Command: env + task.Shell(name), Cwd: dir, File: file,
				Line: ini.KeyLine(section, name), Kind: abi.KindRun, Description: "console script " + target})
		}
	}
	scripts("project.scripts", p.Project.Scripts)
	if poetry {
		scripts("tool.poetry.scripts", p.Tool.Poetry.Scripts)
	}
	if p.Tool.Pytest != nil && p.Tool.Pytest.IniOptions != nil {
		d.addPytest(file, ini.KeyLine("tool.pytest.ini_options", ""), poetry)
	}
	if t := p.Tool.Tox; t != nil {
		if t.LegacyTox != "" {
			d.toxEnvs(file, task.ParseINI([]byte(t.LegacyTox)), ini.KeyLine("tool.tox", "legacy_tox_ini"))
		}
		envs := append([]string(nil), t.EnvList...)
		for _, name := range sortedKeys(t.Env) {
			if !contains(envs, name) {
				envs = append(envs, name)
			}
		}
		for _, e := range envs {
			d.res.Add(abi.Task{Name: e, Runner: "tox", Command: "tox -e " + task.Shell(e), Cwd: dir, File: file,
				Line: lineOr(ini.KeyLine("tool.tox.env."+e, ""), ini.KeyLine("tool.tox", "env_list")), Kind: toxKind(e), Description: "tox environment"})
		}
	}
	if p.Tool.Poe != nil {
		for _, name := range sortedKeys(p.Tool.Poe.Tasks) {
			if strings.HasPrefix(name, "_") {
				continue
			}
			line := ini.KeyLine("tool.poe.tasks", name)
			if l := ini.KeyLine("tool.poe.tasks."+name, ""); l > 0 {
				line = l
			}
			d.res.Add(abi.Task{Name: name, Runner: runner(env, "poe"), Command: env + "poe " + task.Shell(name), Cwd: dir, File: file, Line: line, Description: poeHelp(p.Tool.Poe.Tasks[name])})
		}
	}
	if p.Tool.Hatch != nil {
		for _, envName := range sortedKeys(p.Tool.Hatch.Envs) {
			section := "tool.hatch.envs." + envName + ".scripts"
			for _, name := range sortedKeys(p.Tool.Hatch.Envs[envName].Scripts) {
				ref := name
				if envName != "default" {
					ref = envName + ":" + name
				}
				d.res.Add(abi.Task{Name: ref, Runner: "hatch", Command: "hatch run " + task.Shell(ref), Cwd: dir, File: file, Line: ini.KeyLine(section, name), Kind: task.Kind(name)})
			}
		}
	}
}

// ini adds pytest when the INI file has its section.
func (d *discoverer) ini(file string, data []byte, section string) {
	if s, ok := task.ParseINI(data).Section(section); ok {
		d.addPytest(file, s.Line, false)
	}
}

func (d *discoverer) toxINI(file string, data []byte) {
	d.toxEnvs(file, task.ParseINI(data), 0)
}

// toxEnvs adds the environments of a tox INI: envlist and [testenv:NAME]
// sections. line, when set, is where the INI sits in its file.
func (d *discoverer) toxEnvs(file string, ini *task.INI, line int) {
	dir := task.Dir(file)
	seen := map[string]bool{}
	add := func(name string, l int) {
		if name == "" || seen[name] || strings.ContainsAny(name, "{}") {
			return
		}
		seen[name] = true
		if line > 0 {
			l = line
		}
		d.res.Add(abi.Task{Name: name, Runner: "tox", Command: "tox -e " + task.Shell(name), Cwd: dir, File: file, Line: l, Kind: toxKind(name), Description: "tox environment"})
	}
	if s, ok := ini.Section("tox"); ok {
		for _, k := range s.Keys {
			if k.Key == "envlist" || k.Key == "env_list" {
				for _, e := range strings.FieldsFunc(k.Value, func(r rune) bool { return r == ',' || r == '\n' || r == ' ' }) {
					add(strings.TrimSpace(e), k.Line)
				}
			}
		}
	}
	for _, s := range ini.Sections {
		if name, ok := strings.CutPrefix(s.Name, "testenv:"); ok {
			add(name, s.Line)
		}
	}
}

// pyVersionRE matches environment names that are Python versions (py312,
// 3.13, pypy3, py311-django).
var pyVersionRE = task.Regexp(`^(py\d*|pypy\d*|\d+(\.\d+)*)($|-)`)

// toxKind: environments named after Python versions run the tests; "type"
// checks types.
func toxKind(name string) string {
	switch {
	case pyVersionRE().MatchString(name) && !strings.Contains(name, "lint"):
		return abi.KindTest
	case name == "type" || name == "types":
		return abi.KindLint
	}
	return task.Kind(name)
}

var (
	defRE     = task.Regexp(`^def\s+([A-Za-z_]\w*)\s*\(`)
	nameArgRE = task.Regexp(`name\s*=\s*["']([^"']+)["']`)
)

// nox scans noxfile.py for sessions, line by line: a decorator
// @nox.session or @session at the start of a line, its arguments (over
// several lines too), other decorators and blank lines, then the def of
// the session's function; name= in the arguments renames the session.
// The file is never run. (A regular expression that read the arguments
// up to the next ")" of the file ran, at each decorator, to the end of a
// file without one: quadratic.)
func (d *discoverer) nox(file string, data []byte) {
	dir := task.Dir(file)
	start, open := 0, false // the line of the pending decorator; inside its ( )
	var args strings.Builder
	// closeArgs reads the rest of a line of arguments; a decorator with
	// more than a comment after its ")" is none of a session.
	closeArgs := func(text string) {
		before, after, closed := strings.Cut(text, ")")
		args.WriteString(before)
		open = !closed
		if after = strings.TrimSpace(after); closed && after != "" && after[0] != '#' {
			start = 0
		}
	}
	task.SplitLines(data, func(l string, n int) {
		if open {
			args.WriteByte('\n')
			closeArgs(l)
			return
		}
		if rest, ok := sessionDecorator(l); ok && start == 0 {
			start = n
			args.Reset()
			if r, ok := strings.CutPrefix(rest, "("); ok {
				closeArgs(r)
			} else if strings.TrimSpace(rest) != "" {
				start = 0
			}
			return
		}
		t := strings.TrimSpace(l)
		if start == 0 || t == "" || strings.HasPrefix(l, "@") {
			return // no session pending; blank lines and decorators before its def
		}
		if m := defRE().FindStringSubmatch(t); m != nil {
			name := m[1]
			if a := nameArgRE().FindStringSubmatch(args.String()); a != nil {
				name = a[1]
			}
			d.res.Add(abi.Task{Name: name, Runner: "nox", Command: "nox -s " + task.Shell(name), Cwd: dir, File: file,
				Line: start, Kind: toxKind(name), Description: "nox session"})
		}
		start = 0
	})
}

// sessionDecorator says the line is @nox.session or @session, and returns
// what follows.
func sessionDecorator(l string) (string, bool) {
	for _, p := range []string{"@nox.session", "@session"} {
		if rest, ok := strings.CutPrefix(l, p); ok && (rest == "" || rest[0] == '(' || rest[0] == ' ' || rest[0] == '\t') {
			return rest, true
		}
	}
	return "", false
}

func poeHelp(v any) string {
	if m, ok := v.(map[string]any); ok {
		if h, ok := m["help"].(string); ok {
			return h
		}
	}
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}

func tomlError(err error) string { return task.TOMLError(err) }

func sortedKeys[V any](m map[string]V) []string { return task.SortedKeys(m) }

func contains(ss []string, s string) bool { return slices.Contains(ss, s) }

func lineOr(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}

// Package cargo finds the tasks of Rust projects as cargo resolves them.
// A workspace root gets cargo build, test and clippy of its own (and the
// --workspace forms where they differ: a root package, default-members).
// Each member — a members glob, the root package, or a path dependency
// inside the root, less what exclude names — gets build, test and clippy
// with -p from the root, and run for each binary (--bin when it has more
// than one) and each example (--example), with --features for targets
// that require some. A package a workspace excludes is a project of its
// own; one under a workspace that neither lists nor excludes it is
// refused by cargo and is a warning. The aliases of .cargo/config.toml
// are tasks too.
package cargo

import (
	"path"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"Cargo.toml", "**/.cargo/config.toml", "**/.cargo/config"}

// target is a [[bin]] or [[example]].
type target struct {
	Name             string   `toml:"name"`
	Path             string   `toml:"path"`
	RequiredFeatures []string `toml:"required-features"`
}

// manifest is what a Cargo.toml says that matters here.
type manifest struct {
	Package *struct {
		Name         string `toml:"name"`
		Workspace    string `toml:"workspace"`
		DefaultRun   string `toml:"default-run"`
		Autobins     *bool  `toml:"autobins"`
		Autoexamples *bool  `toml:"autoexamples"`
	} `toml:"package"`
	Workspace *struct {
		Members        []string       `toml:"members"`
		Exclude        []string       `toml:"exclude"`
		DefaultMembers []string       `toml:"default-members"`
		Dependencies   map[string]any `toml:"dependencies"`
	} `toml:"workspace"`
	Bin               []target       `toml:"bin"`
	Example           []target       `toml:"example"`
	Dependencies      map[string]any `toml:"dependencies"`
	DevDependencies   map[string]any `toml:"dev-dependencies"`
	BuildDependencies map[string]any `toml:"build-dependencies"`
}

// crate is one Cargo.toml as read.
type crate struct {
	file, dir string
	m         manifest
	ini       *task.INI
	bad       bool // it could not be read or parsed
}

type discoverer struct {
	fsys   task.FS
	res    *task.Result
	crates map[string]*crate // by folder
	wss    map[string]*workspace
}

// Discover lists the tasks of the Cargo manifests and configs in files.
func Discover(fsys task.FS, files []string) *task.Result {
	d := &discoverer{fsys: fsys, res: task.NewResult(), crates: map[string]*crate{}, wss: map[string]*workspace{}}
	for _, f := range files {
		if path.Base(f) == "Cargo.toml" {
			d.crate(task.Dir(f), true)
		}
	}
	for _, f := range files {
		if path.Base(f) == "Cargo.toml" {
			d.emit(d.crates[task.Dir(f)])
		} else if data, ok := d.res.Read(d.fsys, f); ok {
			d.aliases(f, data)
		}
	}
	return d.res
}

// crate reads the Cargo.toml of dir once; offered says the walk found it
// (only then is a failure a warning).
func (d *discoverer) crate(dir string, offered bool) *crate {
	if c, ok := d.crates[dir]; ok {
		return c
	}
	c := &crate{file: path.Join(dir, "Cargo.toml"), dir: dir}
	d.crates[dir] = c
	var data []byte
	if offered {
		var ok bool
		if data, ok = d.res.Read(d.fsys, c.file); !ok {
			c.bad = true
			return c
		}
	} else {
		b, err := d.fsys.ReadFile(c.file)
		if err != nil {
			c.bad = true
			return c
		}
		data = task.StripBOM(b)
	}
	if err := task.UnmarshalTOML(data, &c.m); err != nil {
		c.bad = true
		if offered {
			d.res.Warn(c.file, "%s; its tasks are not listed", task.TOMLError(err))
		}
		return c
	}
	c.ini = task.ParseINI(data)
	return c
}

// emit adds the tasks of one offered Cargo.toml.
func (d *discoverer) emit(c *crate) {
	if c == nil || c.bad {
		return
	}
	if c.m.Workspace != nil {
		d.workspaceTasks(c)
	}
	if c.m.Package == nil || c.m.Package.Name == "" {
		return
	}
	cwd, flag := c.dir, ""
	switch ws, refused := d.workspaceOf(c); {
	case refused != "":
		d.res.Warn(c.file, "belongs to the workspace of %s, which neither lists it in members nor excludes it: cargo refuses to build it, and its tasks are not listed", refused)
		return
	case ws != nil && ws.root.dir != c.dir:
		cwd, flag = ws.root.dir, " -p "+task.Shell(c.m.Package.Name)
	}
	name := c.m.Package.Name
	line := c.ini.KeyLine("package", "name")
	add := func(cmd, args, file string, line int, desc string) {
		name := cmd + flag + args
		d.res.Add(abi.Task{Name: name, Runner: "cargo", Command: "cargo " + name, Cwd: cwd, File: file, Line: line, Kind: kind(cmd), Description: desc})
	}
	for _, cmd := range []string{"build", "test", "clippy"} {
		add(cmd, "", c.file, line, "package "+name)
	}
	bins := d.bins(c)
	for _, b := range bins {
		args := ""
		if len(bins) > 1 && b.name != c.m.Package.DefaultRun {
			args = " --bin " + task.Shell(b.name)
		}
		add("run", args+b.features(), b.file, b.line, "binary "+b.name+" of package "+name)
	}
	for _, e := range d.examples(c) {
		add("run", " --example "+task.Shell(e.name)+e.features(), e.file, e.line, "example "+e.name+" of package "+name)
	}
}

// workspaceTasks adds the workspace-wide tasks of a workspace root.
func (d *discoverer) workspaceTasks(c *crate) {
	ws := d.workspace(c)
	line := c.ini.KeyLine("workspace", "members")
	desc := "every member: " + ws.memberDirs()
	if dm := c.m.Workspace.DefaultMembers; len(dm) > 0 {
		desc = "default members: " + strings.Join(dm, ", ")
	}
	virtual := c.m.Package == nil
	for _, cmd := range []string{"build", "test", "clippy"} {
		if virtual {
			d.res.Add(abi.Task{Name: cmd, Runner: "cargo", Command: "cargo " + cmd, Cwd: c.dir, File: c.file, Line: line, Kind: kind(cmd), Description: desc})
		}
		if !virtual || len(c.m.Workspace.DefaultMembers) > 0 {
			d.res.Add(abi.Task{Name: cmd + " --workspace", Runner: "cargo", Command: "cargo " + cmd + " --workspace", Cwd: c.dir, File: c.file, Line: line,
				Kind: kind(cmd), Description: "every member: " + ws.memberDirs()})
		}
	}
}

// aliases adds the [alias] entries of a .cargo/config.toml; they run from
// the folder holding .cargo and below.
func (d *discoverer) aliases(file string, data []byte) {
	var c struct {
		Alias map[string]any `toml:"alias"`
	}
	if err := task.UnmarshalTOML(data, &c); err != nil {
		d.res.Warn(file, "%s; its aliases are not listed", task.TOMLError(err))
		return
	}
	ini := task.ParseINI(data)
	dir := path.Dir(task.Dir(file))
	for _, name := range task.SortedKeys(c.Alias) {
		var desc string
		switch v := c.Alias[name].(type) {
		case string:
			desc = "cargo " + v
		case []any:
			parts := make([]string, len(v))
			for i, p := range v {
				parts[i], _ = p.(string)
			}
			desc = "cargo " + strings.Join(parts, " ")
		}
		k := task.Kind(name)
		if sub := strings.Fields(desc); len(sub) > 1 && k == abi.KindOther {
			k = kind(sub[1])
		}
		d.res.Add(abi.Task{Name: name, Runner: "cargo", Command: "cargo " + task.Shell(name), Cwd: dir, File: file,
			Line: ini.KeyLine("alias", name), Kind: k, Description: "alias for " + desc})
	}
}

func kind(c string) string {
	switch c {
	case "build":
		return abi.KindBuild
	case "test":
		return abi.KindTest
	case "clippy", "check", "fmt":
		return abi.KindLint
	case "run":
		return abi.KindRun
	}
	return abi.KindOther
}

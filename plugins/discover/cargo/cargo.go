// Package cargo finds the tasks of Rust projects: build, test, clippy (and
// run for binaries) of each package — with -p from its workspace's root
// when it is a workspace member — the workspace-wide forms at a workspace
// root, and the aliases of .cargo/config.toml.
package cargo

import (
	"path"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"Cargo.toml", "**/.cargo/config.toml", "**/.cargo/config"}

type manifest struct {
	Package *struct {
		Name string `toml:"name"`
	} `toml:"package"`
	Workspace *struct {
		Members []string `toml:"members"`
	} `toml:"workspace"`
	Bin []struct {
		Name string `toml:"name"`
	} `toml:"bin"`
}

type discoverer struct {
	fsys task.FS
	res  *task.Result
	// roots are the folders of workspace roots, by the folder of every
	// Cargo.toml whose workspace has been looked up.
	roots map[string]string
}

// Discover lists the tasks of the Cargo manifests and configs in files.
func Discover(fsys task.FS, files []string) *task.Result {
	d := &discoverer{fsys: fsys, res: task.NewResult(), roots: map[string]string{}}
	for _, f := range files {
		data, ok := d.res.Read(d.fsys, f)
		if !ok {
			continue
		}
		if path.Base(f) == "Cargo.toml" {
			d.manifest(f, data)
		} else {
			d.aliases(f, data)
		}
	}
	return d.res
}

func (d *discoverer) manifest(file string, data []byte) {
	var m manifest
	if err := toml.Unmarshal(data, &m); err != nil {
		d.res.Warn(file, "is not valid TOML (%s); its tasks are not listed", task.TOMLError(err))
		return
	}
	ss := task.Sections(data)
	dir := task.Dir(file)
	if m.Workspace != nil {
		line := task.KeyLineOf(ss, "workspace", "members")
		for _, c := range []string{"build", "test", "clippy"} {
			d.res.Add(abi.Task{Name: c + " --workspace", Runner: "cargo", Command: "cargo " + c + " --workspace", Cwd: dir, File: file, Line: line,
				Kind: kind(c), Description: "every member: " + strings.Join(m.Workspace.Members, ", ")})
		}
	}
	if m.Package == nil || m.Package.Name == "" {
		return
	}
	line := task.KeyLineOf(ss, "package", "name")
	name := m.Package.Name
	cwd, flag := dir, ""
	if root := d.workspaceRoot(dir); root != "" && root != dir {
		cwd, flag = root, " -p "+task.Shell(name)
	}
	commands := []string{"build", "test", "clippy"}
	if len(m.Bin) > 0 || d.fsys.Exists(path.Join(dir, "src/main.rs")) {
		commands = append(commands, "run")
	}
	for _, c := range commands {
		d.res.Add(abi.Task{Name: c + flag, Runner: "cargo", Command: "cargo " + c + flag, Cwd: cwd, File: file, Line: line,
			Kind: kind(c), Description: "package " + name})
	}
}

// workspaceRoot finds the folder of the workspace dir's package belongs
// to: the nearest Cargo.toml above it with a [workspace] table.
func (d *discoverer) workspaceRoot(dir string) string {
	for cur := path.Dir(dir); ; cur = path.Dir(cur) {
		if dir == "." {
			return ""
		}
		if r, ok := d.roots[cur]; ok {
			if r != "" {
				return r
			}
		} else {
			d.roots[cur] = ""
			if data, err := d.fsys.ReadFile(path.Join(cur, "Cargo.toml")); err == nil {
				var m manifest
				if toml.Unmarshal(task.StripBOM(data), &m) == nil && m.Workspace != nil {
					d.roots[cur] = cur
					return cur
				}
			}
		}
		if cur == "." {
			return ""
		}
	}
}

// aliases adds the [alias] entries of a .cargo/config.toml; they run from
// the folder holding .cargo and below.
func (d *discoverer) aliases(file string, data []byte) {
	var c struct {
		Alias map[string]any `toml:"alias"`
	}
	if err := toml.Unmarshal(data, &c); err != nil {
		d.res.Warn(file, "is not valid TOML (%s); its aliases are not listed", task.TOMLError(err))
		return
	}
	ss := task.Sections(data)
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
			Line: task.KeyLineOf(ss, "alias", name), Kind: k, Description: "alias for " + desc})
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

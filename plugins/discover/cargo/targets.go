package cargo

import (
	"path"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
)

// runTarget is a binary or an example cargo can run.
type runTarget struct {
	name, file string
	line       int
	required   []string // required-features
}

// features is the --features argument the target needs, or "".
func (t runTarget) features() string {
	if len(t.required) == 0 {
		return ""
	}
	return " --features " + task.Shell(strings.Join(t.required, ","))
}

// bins are the binaries of c: its [[bin]] tables, then (unless autobins
// is false) src/main.rs, src/bin/NAME.rs and src/bin/NAME/main.rs.
func (d *discoverer) bins(c *crate) []runTarget {
	var auto []runTarget
	if c.m.Package.Autobins == nil || *c.m.Package.Autobins {
		if main := path.Join(c.dir, "src/main.rs"); d.fsys.Exists(main) {
			auto = append(auto, runTarget{name: c.m.Package.Name, file: main, line: 1})
		}
		auto = append(auto, d.discovered(path.Join(c.dir, "src/bin"))...)
	}
	return merge(c, "bin", c.m.Bin, auto)
}

// examples are the examples of c: its [[example]] tables, then (unless
// autoexamples is false) examples/NAME.rs and examples/NAME/main.rs.
func (d *discoverer) examples(c *crate) []runTarget {
	var auto []runTarget
	if c.m.Package.Autoexamples == nil || *c.m.Package.Autoexamples {
		auto = d.discovered(path.Join(c.dir, "examples"))
	}
	return merge(c, "example", c.m.Example, auto)
}

// discovered lists the targets cargo finds in dir: NAME.rs files and
// NAME/main.rs folders.
func (d *discoverer) discovered(dir string) []runTarget {
	var out []runTarget
	for _, e := range d.fsys.List(dir) {
		if name, ok := strings.CutSuffix(e, "/"); ok {
			if main := path.Join(dir, name, "main.rs"); d.fsys.Exists(main) {
				out = append(out, runTarget{name: name, file: main, line: 1})
			}
		} else if name, ok := strings.CutSuffix(e, ".rs"); ok {
			out = append(out, runTarget{name: name, file: path.Join(dir, e), line: 1})
		}
	}
	return out
}

// merge puts the targets of the [[table]]s first, at their lines, then the
// discovered ones they do not name or point at.
func merge(c *crate, table string, declared []target, auto []runTarget) []runTarget {
	var out []runTarget
	names, paths := map[string]bool{}, map[string]bool{}
	headers := 0
	for _, s := range c.ini.Sections {
		if s.Name != table || headers >= len(declared) {
			continue
		}
		t := declared[headers]
		headers++
		if t.Name == "" {
			continue
		}
		line := s.Line
		for _, k := range s.Keys {
			if k.Key == "name" {
				line = k.Line
			}
		}
		out = append(out, runTarget{name: t.Name, file: c.file, line: line, required: t.RequiredFeatures})
		names[t.Name] = true
		if p, ok := task.Join(c.dir, t.Path); ok && t.Path != "" {
			paths[p] = true
		}
	}
	for _, a := range auto {
		if !names[a.name] && !paths[a.file] {
			out = append(out, a)
		}
	}
	return out
}

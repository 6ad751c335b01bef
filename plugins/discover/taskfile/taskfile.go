// Package taskfile finds the tasks of Taskfile.yml files (go-task), with
// their desc (or summary) as description, through the Taskfiles they
// include: an included task is `task NS:NAME` from the including
// Taskfile's folder (flatten: true drops NS), and the folder it runs in
// (the include's dir) is named in its description. Internal tasks, and
// every task of an internal include, are left out; a missing optional
// include is no error.
package taskfile

import (
	"fmt"
	"path"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml", "Taskfile.dist.yml", "Taskfile.dist.yaml"}

// defaultNames are the files task looks for in a folder, in order.
var defaultNames = []string{"Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml", "Taskfile.dist.yml", "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml"}

// maxDepth bounds chains of includes, and maxFiles the files read for
// one Taskfile: a file may be included along many paths, and ten files
// that each include the ten of the next level reach 10^8 reads in eight
// levels (real Taskfiles include a few).
const (
	maxDepth = 8
	maxFiles = 256
)

// include is one entry of includes:, in its short (a path) or long form.
type include struct {
	Taskfile string   `yaml:"taskfile"`
	Dir      string   `yaml:"dir"`
	Optional bool     `yaml:"optional"`
	Internal bool     `yaml:"internal"`
	Flatten  bool     `yaml:"flatten"`
	Excludes []string `yaml:"excludes"`
}

func (in *include) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		in.Taskfile = n.Value
		return nil
	}
	type plain include
	return n.Decode((*plain)(in))
}

// scope is where the tasks of one Taskfile end up: their name prefix and
// the folder they run in, relative to the root.
type scope struct {
	prefix, runDir string
	excludes       map[string]bool
}

type discoverer struct {
	fsys  task.FS
	res   *task.Result
	found []abi.Task // of the top Taskfile being read
	fatal string     // why task refuses it, if it does
	files int        // included files read for it (maxFiles)
	bytes int        // their bytes, at each inclusion (task.MaxIncluded)
}

// Discover lists the tasks of the Taskfiles in files.
func Discover(fsys task.FS, files []string) *task.Result {
	d := &discoverer{fsys: fsys, res: task.NewResult()}
	for _, f := range files {
		data, ok := d.res.Read(fsys, f)
		if !ok {
			continue
		}
		dir := task.Dir(f)
		d.found, d.fatal, d.files, d.bytes = nil, "", 0, 0
		d.taskfile(f, data, dir, scope{runDir: dir}, 0, map[string]bool{f: true})
		if d.fatal != "" {
			d.res.Warn(f, "task refuses this Taskfile: %s; its tasks are not listed", d.fatal)
			continue
		}
		for _, t := range d.found {
			d.res.Add(t)
		}
	}
	return d.res
}

// taskfile adds the tasks of one Taskfile, then those it includes; root
// is the folder of the top Taskfile, where the commands are typed.
func (d *discoverer) taskfile(file string, data []byte, root string, sc scope, depth int, seen map[string]bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		d.res.Warn(file, "is not valid YAML (%v); its tasks are not listed", err)
		return
	}
	if tasks := lookup(&doc, "tasks"); tasks != nil && tasks.Kind == yaml.MappingNode {
		d.tasks(file, tasks, root, sc)
	}
	incs := lookup(&doc, "includes")
	if incs == nil || incs.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(incs.Content); i += 2 {
		k, v := incs.Content[i], incs.Content[i+1]
		var in include
		if err := v.Decode(&in); err != nil {
			d.res.Warn(file, "line %d: include %s: %v", k.Line, k.Value, err)
			continue
		}
		if in.Internal || strings.Contains(in.Taskfile+in.Dir, "{{") {
			continue // internal tasks, or a templated path (never evaluated)
		}
		if depth >= maxDepth {
			d.res.Warn(file, "line %d: includes nest deeper than %d; %s was not read", k.Line, maxDepth, k.Value)
			continue
		}
		inc := d.find(task.Dir(file), in.Taskfile)
		if inc == "" || seen[inc] {
			if inc == "" && !in.Optional && d.fatal == "" {
				d.fatal = fmt.Sprintf("%s line %d includes %s, which is not there", file, k.Line, in.Taskfile)
			}
			continue
		}
		if d.files++; d.files > maxFiles {
			if d.files == maxFiles+1 {
				d.res.Warn(file, "line %d: the Taskfile includes more than %d files; %s and those after it were not read", k.Line, maxFiles, inc)
			}
			continue
		}
		if d.bytes > task.MaxIncluded {
			continue // said once, below
		}
		b, err := d.fsys.ReadFile(inc)
		if err != nil {
			d.res.Warn(file, "line %d: the included Taskfile %s could not be read: %v", k.Line, inc, err)
			continue
		}
		if d.bytes += len(b); d.bytes > task.MaxIncluded {
			d.res.Warn(file, "line %d: the Taskfile includes more than %d MiB, counting a file at each inclusion; %s and those after it were not read", k.Line, task.MaxIncluded>>20, inc)
			continue
		}
		next := scope{prefix: sc.prefix + k.Value + ":", runDir: sc.runDir, excludes: map[string]bool{}}
		if in.Flatten {
			next.prefix = sc.prefix
		}
		if in.Dir != "" {
			if p, ok := task.Join(task.Dir(file), in.Dir); ok {
				next.runDir = p
			}
		}
		for _, e := range in.Excludes {
			next.excludes[e] = true
		}
		seen[inc] = true
		d.taskfile(inc, task.StripBOM(b), root, next, depth+1, seen)
		delete(seen, inc)
	}
}

// tasks adds the tasks of one tasks: mapping.
func (d *discoverer) tasks(file string, tasks *yaml.Node, root string, sc scope) {
	for i := 0; i+1 < len(tasks.Content); i += 2 {
		k, v := tasks.Content[i], tasks.Content[i+1]
		var body struct {
			Desc     string `yaml:"desc"`
			Summary  string `yaml:"summary"`
			Internal bool   `yaml:"internal"`
			Dir      string `yaml:"dir"`
		}
		if v.Kind == yaml.MappingNode {
			if err := v.Decode(&body); err != nil {
				d.res.Warn(file, "line %d: task %s: %v", k.Line, k.Value, err)
				continue
			}
		}
		if body.Internal || sc.excludes[k.Value] {
			continue
		}
		desc := body.Desc
		if desc == "" {
			desc = strings.TrimSpace(body.Summary)
		}
		if sc.runDir != root && body.Dir == "" {
			desc = strings.TrimSpace(desc + " (runs in " + sc.runDir + ")")
		}
		name := sc.prefix + k.Value
		d.found = append(d.found, abi.Task{Name: name, Runner: "task", Command: "task " + task.Shell(name), Cwd: root, File: file, Line: k.Line, Description: desc})
	}
}

// find resolves an include's taskfile (relative to dir): a file, or a
// folder holding one of the default names. "" when none exists.
func (d *discoverer) find(dir, rel string) string {
	p, ok := task.Join(dir, rel)
	if !ok {
		return ""
	}
	if d.fsys.List(p) == nil {
		if d.fsys.Exists(p) {
			return p
		}
		return ""
	}
	for _, name := range defaultNames {
		if f := path.Join(p, name); d.fsys.Exists(f) {
			return f
		}
	}
	return ""
}

// lookup returns the value of key in the top mapping of a document.
func lookup(doc *yaml.Node, key string) *yaml.Node {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

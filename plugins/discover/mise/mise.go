// Package mise finds the tasks of mise: the [tasks] table of mise.toml and
// .mise.toml (a command string, a list, or a table with run and
// description), and file tasks — executable files in the task folders
// mise reads (mise-tasks, .mise-tasks, .mise/tasks, .config/mise/tasks,
// mise/tasks, or those of [task_config] includes), named by their path
// (a/b.sh is a:b, a/_default is a), described by their #MISE
// description= comment. Hidden tasks are left out.
package mise

import (
	"path"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// taskDirs are mise's default folders of file tasks, below a config root;
// a longer one that ends like a shorter one comes first.
var taskDirs = []string{".config/mise/tasks", ".mise/tasks", ".mise-tasks", "mise-tasks", "mise/tasks"}

// Files are the files this discoverer reads: config files and every file
// in a task folder.
var Files = []string{"mise.toml", ".mise.toml", "**/mise-tasks/**", "**/.mise-tasks/**", "**/.mise/tasks/**", "**/.config/mise/tasks/**", "**/mise/tasks/**"}

// Bounds of the walk of [task_config] includes (its files, and its
// folders: each a listing through the host) and of a script's head.
const (
	maxIncludeFiles = 500
	headBytes       = 4 << 10
)

// config is what a mise.toml says that matters here.
type config struct {
	Tasks      map[string]any `toml:"tasks"`
	TaskConfig struct {
		Includes []string `toml:"includes"`
	} `toml:"task_config"`
}

// root is one folder whose tasks mise runs: its config files and its
// file tasks.
type root struct {
	dir      string
	configs  []string
	scripts  []string // offered files of its default task folders
	includes []string // [task_config] includes, when set
	names    map[string]bool
}

type discoverer struct {
	fsys  task.FS
	res   *task.Result
	roots map[string]*root
	order []string
}

// Discover lists the tasks of the mise files in files.
func Discover(fsys task.FS, files []string) *task.Result {
	d := &discoverer{fsys: fsys, res: task.NewResult(), roots: map[string]*root{}}
	for _, f := range files {
		if dir, _, ok := taskDir(f); ok {
			d.root(dir).scripts = append(d.root(dir).scripts, f)
		} else {
			d.root(task.Dir(f)).configs = append(d.root(task.Dir(f)).configs, f)
		}
	}
	for _, dir := range d.order {
		r := d.roots[dir]
		for _, f := range r.configs {
			d.config(r, f)
		}
		if r.includes != nil {
			d.included(r)
			continue
		}
		for _, f := range r.scripts {
			_, rel, _ := taskDir(f)
			d.script(r, f, rel)
		}
	}
	return d.res
}

func (d *discoverer) root(dir string) *root {
	r := d.roots[dir]
	if r == nil {
		r = &root{dir: dir, names: map[string]bool{}}
		d.roots[dir] = r
		d.order = append(d.order, dir)
	}
	return r
}

// taskDir splits a file in a default task folder into the folder of its
// config root and its path in the task folder.
func taskDir(file string) (dir, rel string, ok bool) {
	best := -1
	for _, td := range taskDirs {
		for i := 0; i+len(td) < len(file); i++ {
			if (i == 0 || file[i-1] == '/') && strings.HasPrefix(file[i:], td+"/") && (best < 0 || i < best) {
				best, rel = i, file[i+len(td)+1:]
				break
			}
		}
	}
	if best < 0 {
		return "", "", false
	}
	if best == 0 {
		return ".", rel, true
	}
	return file[:best-1], rel, true
}

// config adds the [tasks] of a mise.toml and notes its task_config.
func (d *discoverer) config(r *root, f string) {
	data, ok := d.res.Read(d.fsys, f)
	if !ok {
		return
	}
	var v config
	if err := task.UnmarshalTOML(data, &v); err != nil {
		d.res.Warn(f, "%s; its tasks are not listed", task.TOMLError(err))
		return
	}
	if v.TaskConfig.Includes != nil {
		r.includes = append(r.includes, v.TaskConfig.Includes...)
	}
	ini := task.ParseINI(data)
	for _, name := range task.SortedKeys(v.Tasks) {
		desc := ""
		switch t := v.Tasks[name].(type) {
		case string:
			desc = t
		case map[string]any:
			if h, _ := t["hide"].(bool); h {
				continue
			}
			desc, _ = t["description"].(string)
			if r, ok := t["run"].(string); ok && desc == "" {
				desc = r
			}
		}
		line := ini.KeyLine("tasks", name)
		if l := ini.KeyLine("tasks."+name, ""); l > 0 {
			line = l
		} else if l := ini.KeyLine(`tasks."`+name+`"`, ""); l > 0 {
			line = l
		}
		d.add(r, abi.Task{Name: name, File: f, Line: line, Description: desc})
	}
}

// add records a task of r unless its name is taken.
func (d *discoverer) add(r *root, t abi.Task) {
	if r.names[t.Name] {
		return
	}
	r.names[t.Name] = true
	t.Runner, t.Command, t.Cwd = "mise", "mise run "+task.Shell(t.Name), r.dir
	d.res.Add(t)
}

// included walks the folders of [task_config] includes for file tasks.
func (d *discoverer) included(r *root) {
	seen, listed := 0, 0 // files looked at, folders listed
	for _, inc := range r.includes {
		top, ok := task.Join(r.dir, inc)
		if !ok || strings.HasSuffix(inc, ".toml") {
			continue // TOML task files are not read
		}
		queue := []string{""}
		for len(queue) > 0 && seen < maxIncludeFiles && listed < maxIncludeFiles {
			rel := queue[0]
			queue = queue[1:]
			listed++
			for _, e := range d.fsys.List(path.Join(top, rel)) {
				p := path.Join(rel, strings.TrimSuffix(e, "/"))
				if strings.HasSuffix(e, "/") {
					queue = append(queue, p)
				} else if seen++; seen <= maxIncludeFiles {
					d.script(r, path.Join(top, p), p)
				}
			}
		}
	}
}

// script adds the file task f, rel its path in its task folder, when it
// is an executable, visible file.
func (d *discoverer) script(r *root, f, rel string) {
	elems := strings.Split(rel, "/")
	for _, e := range elems {
		if strings.HasPrefix(e, ".") {
			return
		}
	}
	if strings.HasSuffix(f, ".toml") || !d.fsys.Executable(f) {
		return
	}
	last := elems[len(elems)-1]
	if ext := path.Ext(last); ext != "" && ext != last {
		last = strings.TrimSuffix(last, ext)
	}
	elems[len(elems)-1] = last
	if last == "_default" && len(elems) > 1 {
		elems = elems[:len(elems)-1]
	}
	head, _ := d.fsys.ReadHead(f, headBytes)
	opts := directives(head)
	if opts.Hide {
		return
	}
	d.add(r, abi.Task{Name: strings.Join(elems, ":"), File: f, Line: 1, Description: opts.Description})
}

// options are the #MISE directives of a file task that matter here.
type options struct {
	Description string `toml:"description"`
	Hide        bool   `toml:"hide"`
}

// directives reads the "#MISE key=value" lines (also "# MISE", "//MISE",
// "# [MISE]") at the head of a file task; their values are TOML.
func directives(head []byte) options {
	var lines []string
	for _, l := range strings.Split(string(head), "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{"#MISE ", "# MISE ", "//MISE ", "# [MISE] "} {
			if rest, ok := strings.CutPrefix(l, p); ok {
				lines = append(lines, rest)
				break
			}
		}
	}
	var o options
	for _, l := range lines {
		var one options
		if toml.Unmarshal([]byte(l), &one) == nil {
			if one.Description != "" {
				o.Description = one.Description
			}
			o.Hide = o.Hide || one.Hide
		}
	}
	return o
}

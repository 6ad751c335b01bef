// Package gradle finds the tasks of Gradle builds without running Gradle
// (`gradle tasks` executes the build scripts). It reads, as text, the
// projects settings.gradle(.kts) includes and the build script of each:
// the tasks the plugins it applies bring (java: build, test, jar;
// application: run; Spring Boot, Android, Quarkus …; convention plugins of
// buildSrc and included builds are followed, version-catalog aliases
// resolved, subprojects {} and allprojects {} blocks applied) and the
// tasks it registers (tasks.register, task NAME). A subproject's tasks are
// addressed :path:name from the root; the root lists its own tasks, the
// standard ones that some project has (run by name in every project that
// has them), and `tasks`. The wrapper (./gradlew) is used when present.
package gradle

import (
	"path"
	"slices"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"settings.gradle", "settings.gradle.kts", "build.gradle", "build.gradle.kts"}

// maxConvention bounds chains of convention plugins.
const maxConvention = 4

var (
	includeRE     = task.Regexp(`(?m)^\s*include\b\s*(\((?s:[^)]*)\)|[^\n]*)`)
	includeBldRE  = task.Regexp(`(?m)^\s*includeBuild\s*\(?\s*["']([^"']+)["']`)
	projectDirRE  = task.Regexp(`project\s*\(\s*["']([^"']+)["']\s*\)\s*\.projectDir\s*=\s*(?:file\s*\(\s*)?["']([^"']+)["']`)
	quotedRE      = task.Regexp(`["']([^"']+)["']`)
	scriptNames   = []string{"build.gradle.kts", "build.gradle"}
	settingsNames = []string{"settings.gradle.kts", "settings.gradle"}
)

// build is one Gradle build: a settings file's folder, or a lone build
// script's.
type build struct {
	dir, file string   // file: the settings file, else the root script
	cmd       string   // ./gradlew or gradle
	logic     []string // buildSrc and included builds: convention plugins
	catalog   map[string]string
	projects  []*project
}

// project is one project of a build.
type project struct {
	path, dir string // ":app", "app"
	line      int    // of its include, in the settings file
	script    *script
}

type discoverer struct {
	fsys task.FS
	res  *task.Result
}

// Discover lists the tasks of the Gradle builds in files.
func Discover(fsys task.FS, files []string) *task.Result {
	d := &discoverer{fsys: fsys, res: task.NewResult()}
	settings := map[string]bool{}
	for _, f := range files {
		if strings.HasPrefix(path.Base(f), "settings.gradle") {
			settings[task.Dir(f)] = true
		}
	}
	under := func(dir string) bool {
		for cur := dir; ; cur = path.Dir(cur) {
			if settings[cur] {
				return true
			}
			if cur == "." {
				return false
			}
		}
	}
	done := map[string]bool{}
	for _, f := range files {
		dir := task.Dir(f)
		isSettings := strings.HasPrefix(path.Base(f), "settings.gradle")
		if done[dir] || (!isSettings && under(dir)) {
			continue
		}
		done[dir] = true
		if b := d.build(f, isSettings); b != nil {
			d.emit(b)
		}
	}
	return d.res
}

// build reads a build: its settings (projects, included builds) and the
// script of each project.
func (d *discoverer) build(file string, isSettings bool) *build {
	data, ok := d.res.Read(d.fsys, file)
	if !ok {
		return nil
	}
	dir := task.Dir(file)
	b := &build{dir: dir, file: file, cmd: "gradle", catalog: d.catalog(dir)}
	if d.fsys.Exists(path.Join(dir, "gradlew")) {
		b.cmd = "./gradlew"
	}
	if d.fsys.Exists(path.Join(dir, "buildSrc")) {
		b.logic = append(b.logic, path.Join(dir, "buildSrc"))
	}
	b.projects = []*project{{path: ":", dir: dir, line: 1}}
	if isSettings {
		text := string(data)
		for _, m := range includeBldRE().FindAllStringSubmatch(text, -1) {
			if p, ok := task.Join(dir, m[1]); ok {
				b.logic = append(b.logic, p)
			}
		}
		dirs := map[string]string{}
		for _, m := range projectDirRE().FindAllStringSubmatch(text, -1) {
			if p, ok := task.Join(dir, m[2]); ok {
				dirs[":"+strings.TrimPrefix(m[1], ":")] = p
			}
		}
		for _, m := range includeRE().FindAllStringSubmatchIndex(text, -1) {
			line := task.LineAt(data, m[0]+leadingSpace(text[m[0]:]))
			for _, q := range quotedRE().FindAllStringSubmatch(text[m[2]:m[3]], -1) {
				p := ":" + strings.TrimPrefix(q[1], ":")
				pdir, ok := dirs[p]
				if !ok {
					pdir = path.Join(dir, strings.ReplaceAll(strings.TrimPrefix(p, ":"), ":", "/"))
				}
				b.projects = append(b.projects, &project{path: p, dir: pdir, line: line})
			}
		}
	}
	for _, p := range b.projects {
		for _, name := range scriptNames {
			f := path.Join(p.dir, name)
			if p.path == ":" && !isSettings && f != file {
				continue
			}
			if data, err := d.fsys.ReadFile(f); err == nil {
				p.script = parseScript(f, task.StripBOM(data), b.catalog)
				break
			}
		}
	}
	return b
}

// found is a task of a project, with where it comes from.
type found struct {
	pluginTask
	file string
	line int
}

// tasksOf lists the tasks a project has: those of its plugins (convention
// plugins followed), those of the root's subprojects {} / allprojects {}
// plugins, and those its scripts register.
func (d *discoverer) tasksOf(b *build, p *project) []found {
	var out []found
	seen := map[string]bool{}
	add := func(t pluginTask, file string, line int) {
		if !seen[t.name] {
			seen[t.name] = true
			out = append(out, found{t, file, line})
		}
	}
	var walk func(s *script, plugins []applied, depth int)
	walk = func(s *script, plugins []applied, depth int) {
		for _, a := range plugins {
			if ts, ok := known(a.id); ok {
				for _, t := range ts {
					add(t, s.file, a.line)
				}
				continue
			}
			if depth >= maxConvention {
				continue
			}
			if f := d.conventionScript(b, a.id); f != "" {
				if data, err := d.fsys.ReadFile(f); err == nil {
					cs := parseScript(f, task.StripBOM(data), b.catalog)
					walk(cs, cs.plugins, depth+1)
					for _, r := range cs.tasks {
						add(pluginTask{r.name, task.Kind(r.name), r.desc, false}, f, r.line)
					}
				}
			}
		}
	}
	if p.script != nil {
		walk(p.script, p.script.plugins, 0)
	}
	if root := b.projects[0].script; root != nil && (p.path != ":" || root.all) {
		walk(root, root.children, 0)
	}
	if p.script != nil {
		for _, r := range p.script.tasks {
			add(pluginTask{r.name, task.Kind(r.name), r.desc, false}, p.script.file, r.line)
		}
	}
	return out
}

// emit adds the tasks of a build.
func (d *discoverer) emit(b *build) {
	add := func(name, kind, file string, line int, desc string) {
		d.res.Add(abi.Task{Name: name, Runner: "gradle", Command: b.cmd + " " + task.Shell(name), Cwd: b.dir, File: file, Line: line, Kind: kind, Description: desc})
	}
	rootHas := map[string]bool{}
	anyHas := map[string]bool{}
	for i, p := range b.projects {
		for _, t := range d.tasksOf(b, p) {
			anyHas[t.name] = true
			if t.aggregateOnly && i > 0 {
				continue
			}
			if i == 0 {
				rootHas[t.name] = true
				desc := t.desc
				if a := slices.IndexFunc(aggregated, func(a pluginTask) bool { return a.name == t.name }); a >= 0 && len(b.projects) > 1 {
					desc = aggregated[a].desc // run by name in every project that has it
				}
				add(t.name, t.kind, t.file, t.line, desc)
				continue
			}
			add(p.path+":"+t.name, t.kind, t.file, t.line, strings.TrimSpace("project "+p.path+": "+t.desc))
		}
	}
	for _, t := range aggregated {
		if anyHas[t.name] && !rootHas[t.name] {
			add(t.name, t.kind, b.file, 1, t.desc)
		}
	}
	add("tasks", abi.KindOther, b.file, 1, "list the tasks of the build (runs its build scripts)")
}

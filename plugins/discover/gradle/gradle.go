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

// maxConvention bounds chains of convention plugins, and maxProjects the
// projects of a build: each is a few reads through the host and a walk of
// its plugins (Gradle's largest builds have a few thousand).
const (
	maxConvention = 4
	maxProjects   = 5000
)

var (
	includeRE     = task.Regexp(`(?m)^\s*include\b\s*`)
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
	convs     map[string]*script // convention plugins looked for, by id; nil: none
	convFull  bool               // maxConventionIDs were looked for
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
	b := &build{dir: dir, file: file, cmd: "gradle", catalog: d.catalog(dir), convs: map[string]*script{}}
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
		lines := task.NewLines(data)
		for _, inc := range includes(text) {
			line := lines.At(inc[0] + leadingSpace(text[inc[0]:]))
			for _, q := range quotedRE().FindAllStringSubmatch(text[inc[1]:inc[2]], -1) {
				p := ":" + strings.TrimPrefix(q[1], ":")
				pdir, ok := dirs[p]
				if !ok {
					pdir = path.Join(dir, strings.ReplaceAll(strings.TrimPrefix(p, ":"), ":", "/"))
				}
				if len(b.projects) > maxProjects {
					d.res.Warn(file, "line %d: the build includes more than %d projects; %s and those after it are not listed", line, maxProjects, p)
					break
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

// includes finds the include statements of a settings file: for each,
// the offset of its line and the bounds of its argument text, "(…)"
// (across lines) or the rest of the line. A regular expression that does
// both ran, at each include, to the next ")" of the file: quadratic in a
// file of unclosed "include(" lines. Here the next ")" is found once for
// all the includes before it.
func includes(text string) [][3]int {
	var out [][3]int
	end, close := 0, -1 // end of the last include; the next ")" seen
	noClose := false    // no ")" after close: none to the end of the file
	for _, m := range includeRE().FindAllStringIndex(text, -1) {
		if m[0] < end {
			continue // inside the parentheses of the one before
		}
		arg := m[1]
		if arg < len(text) && text[arg] == '(' && !noClose {
			if close < arg {
				if i := strings.IndexByte(text[arg:], ')'); i >= 0 {
					close = arg + i
				} else {
					noClose = true
				}
			}
			if !noClose {
				out = append(out, [3]int{m[0], arg, close + 1})
				end = close + 1
				continue
			}
		}
		eol := len(text)
		if i := strings.IndexByte(text[arg:], '\n'); i >= 0 {
			eol = arg + i
		}
		out = append(out, [3]int{m[0], arg, eol})
		end = eol
	}
	return out
}

// maxConventionIDs bounds the plugin ids a build looks for among its
// convention plugins: each look is a few host calls per folder of
// build logic, and a script may name a million ids. Builds apply tens.
const maxConventionIDs = 500

// convention returns the convention plugin id of the build, read and
// parsed once for all its projects; nil when there is none.
func (d *discoverer) convention(b *build, id string) *script {
	if cs, ok := b.convs[id]; ok {
		return cs
	}
	if len(b.convs) >= maxConventionIDs {
		if !b.convFull {
			d.res.Warn(b.file, "its scripts apply more than %d plugins juju does not know; the tasks of the others are not listed", maxConventionIDs)
			b.convFull = true
		}
		return nil
	}
	var cs *script
	if f := d.conventionScript(b, id); f != "" {
		if data, err := d.fsys.ReadFile(f); err == nil {
			cs = parseScript(f, task.StripBOM(data), b.catalog)
		}
	}
	b.convs[id] = cs
	return cs
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
			if cs := d.convention(b, a.id); cs != nil {
				walk(cs, cs.plugins, depth+1)
				for _, r := range cs.tasks {
					add(pluginTask{r.name, task.Kind(r.name), r.desc, false}, cs.file, r.line)
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

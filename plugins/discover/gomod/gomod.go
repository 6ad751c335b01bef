// Package gomod finds the tasks of Go modules: build, test and vet of
// each module of a go.mod and of each module a go.work uses (with the
// module as cwd); go run for every main package; go generate when a file
// of the module holds a //go:generate directive; go tool for every tool
// directive. A module under a go.work that does not use it is run with
// GOWORK=off, as go refuses it otherwise.
package gomod

import (
	"path"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"go.mod", "go.work"}

// module is one go.mod as read.
type module struct {
	dir, file, path string
	line            int       // of the module directive
	tools           []keyLine // tool directives
	gowork          string    // "GOWORK=off " when a go.work above does not use it
}

type discoverer struct {
	fsys   task.FS
	res    *task.Result
	mods   []*module
	byDir  map[string]*module
	tried  map[string]bool            // go.mod files read
	works  map[string]map[string]bool // go.work folder → the module folders it uses
	warned bool                       // of maxModules
}

// Discover lists the tasks of the go.mod and go.work files in files.
func Discover(fsys task.FS, files []string) *task.Result {
	d := &discoverer{fsys: fsys, res: task.NewResult(), byDir: map[string]*module{}, tried: map[string]bool{}, works: map[string]map[string]bool{}}
	for _, f := range files {
		if path.Base(f) == "go.work" {
			d.work(f)
		}
	}
	for _, f := range files {
		if path.Base(f) == "go.mod" {
			d.module(f)
		}
	}
	for _, m := range d.mods {
		m.gowork = d.outsideWork(m.dir)
	}
	pkgs := d.packages()
	for _, m := range d.mods {
		d.emit(m, pkgs[m.dir])
	}
	return d.res
}

// maxModules bounds the go.mod files read: a go.work's use directives
// name modules the walk did not offer (and so did not bound), each a read
// through the host, and every module is compared with every other.
const maxModules = 1000

// full says maxModules go.mod files were read, with a warning naming file
// the first time.
func (d *discoverer) full(file string) bool {
	if len(d.tried) < maxModules {
		return false
	}
	if !d.warned {
		d.res.Warn(file, "names a module past the first %d read; it and those after it are not listed", maxModules)
		d.warned = true
	}
	return true
}

// module reads one go.mod.
func (d *discoverer) module(file string) {
	if d.tried[file] {
		return
	}
	if d.full(file) {
		return
	}
	d.tried[file] = true
	data, ok := d.res.Read(d.fsys, file)
	if !ok {
		return
	}
	m := &module{dir: task.Dir(file), file: file}
	for _, dl := range directives(data) {
		switch dl.verb {
		case "module":
			if m.path == "" {
				m.path, m.line = strings.Trim(dl.arg, `"`), dl.line
			}
		case "tool":
			m.tools = append(m.tools, keyLine{strings.Trim(dl.arg, `"`), dl.line})
		}
	}
	if m.path == "" {
		d.res.Warn(file, "has no module directive; its tasks are not listed")
		return
	}
	d.mods = append(d.mods, m)
	d.byDir[m.dir] = m
}

// work reads the use directives of a go.work and the go.mod of each
// module it uses, offered by the walk or not.
func (d *discoverer) work(file string) {
	data, ok := d.res.Read(d.fsys, file)
	if !ok {
		return
	}
	dir := task.Dir(file)
	used := map[string]bool{}
	d.works[dir] = used
	for _, dl := range directives(data) {
		if dl.verb != "use" {
			continue
		}
		p, ok := task.Join(dir, strings.Trim(dl.arg, `"`))
		if !ok {
			continue
		}
		used[p] = true
		if d.full(file) {
			continue // the module is used, and not read
		}
		if !d.fsys.Exists(path.Join(p, "go.mod")) {
			d.res.Warn(file, "line %d: uses %s, which has no go.mod", dl.line, dl.arg)
			continue
		}
		d.module(path.Join(p, "go.mod"))
	}
}

// outsideWork returns "GOWORK=off " when the go.work go finds from dir
// (the nearest one above it) does not use the module in dir.
func (d *discoverer) outsideWork(dir string) string {
	for cur := dir; ; cur = path.Dir(cur) {
		if used, ok := d.works[cur]; ok {
			if used[dir] {
				return ""
			}
			return "GOWORK=off "
		}
		if cur == "." {
			return ""
		}
	}
}

// emit adds the tasks of one module.
func (d *discoverer) emit(m *module, p *pkgInfo) {
	desc := "module " + m.path
	if m.gowork != "" {
		desc += " (not used by the go.work above it)"
	}
	add := func(name, command, kind, file string, line int, desc string) {
		d.res.Add(abi.Task{Name: name, Runner: "go", Command: m.gowork + "go " + command, Cwd: m.dir, File: file, Line: line, Kind: kind, Description: desc})
	}
	add("build", "build ./...", abi.KindBuild, m.file, m.line, desc)
	add("test", "test ./...", abi.KindTest, m.file, m.line, desc)
	add("vet", "vet ./...", abi.KindLint, m.file, m.line, desc)
	if p != nil && p.generate != "" {
		add("generate", "generate ./...", abi.KindBuild, m.file, m.line, desc+": runs the //go:generate directives (the first in "+p.generate+")")
	}
	if p != nil {
		for _, rel := range task.SortedKeys(p.mains) {
			arg := "."
			imp := m.path
			if rel != "." {
				arg, imp = "./"+rel, m.path+"/"+rel
			}
			f := p.mains[rel]
			add("run "+arg, "run "+task.Shell(arg), abi.KindRun, f.Key, f.Line, "main package "+imp)
		}
	}
	for _, t := range m.tools {
		name := toolName(t.Key)
		if strings.HasPrefix(name, "-") {
			continue // go tool would read it as a flag
		}
		add("tool "+name, "tool "+task.Shell(name), task.Kind(name), m.file, t.Line, "tool "+t.Key)
	}
}

// toolName is the name go tool knows a tool package by: the last element
// of its path, or the one before a major version suffix (…/cmd/x/v2 → x).
func toolName(pkg string) string {
	elem := path.Base(pkg)
	if isVersionElement(elem) && elem != pkg {
		elem = path.Base(path.Dir(pkg))
	}
	return elem
}

// isVersionElement is cmd/go's test for a major version suffix: v2, v3 …
func isVersionElement(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] == '0' || s[1] == '1' && len(s) == 2 {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// keyLine is a string found on a line.
type keyLine struct {
	Key  string
	Line int
}

// directive is one "verb arg" of a go.mod or go.work, from its line form
// or from a block ("verb (" … ")").
type directive struct {
	verb, arg string
	line      int
}

// directives reads the directives of a go.mod or go.work; comments are
// dropped and only the first argument is kept.
func directives(data []byte) []directive {
	var out []directive
	block := ""
	for i, l := range strings.Split(string(task.StripBOM(data)), "\n") {
		if c := strings.Index(l, "//"); c >= 0 {
			l = l[:c]
		}
		f := strings.Fields(l)
		switch {
		case len(f) == 0:
		case block != "" && f[0] == ")":
			block = ""
		case block != "":
			out = append(out, directive{block, f[0], i + 1})
		case len(f) == 2 && f[1] == "(":
			block = f[0]
		case len(f) >= 2:
			out = append(out, directive{f[0], f[1], i + 1})
		}
	}
	return out
}

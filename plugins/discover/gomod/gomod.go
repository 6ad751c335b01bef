// Package gomod finds the tasks of Go modules: build, test and vet of each
// module of a go.mod (and of each module a go.work uses), and generate when
// the module holds a //go:generate directive.
package gomod

import (
	"bufio"
	"bytes"
	"path"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"go.mod", "go.work"}

// Bounds of the look for //go:generate: the heads of the .go files of the
// module's folder and of the folders right below it, so many at most.
const (
	maxGoFiles = 30
	maxGoDirs  = 10
	headBytes  = 8 << 10
)

type discoverer struct {
	fsys task.FS
	res  *task.Result
	done map[string]bool // module folders listed
}

// Discover lists the tasks of the go.mod and go.work files in files.
func Discover(fsys task.FS, files []string) *task.Result {
	d := &discoverer{fsys: fsys, res: task.NewResult(), done: map[string]bool{}}
	var works []string
	for _, f := range files {
		if path.Base(f) == "go.work" {
			works = append(works, f)
			continue
		}
		d.module(f)
	}
	for _, w := range works {
		d.work(w)
	}
	return d.res
}

// module adds the tasks of one go.mod.
func (d *discoverer) module(file string) {
	if d.done[file] {
		return
	}
	d.done[file] = true
	data, ok := d.res.Read(d.fsys, file)
	if !ok {
		return
	}
	name, line := "", 0
	for i, l := range lines(data) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			name, line = strings.Trim(strings.TrimSpace(rest), `"`), i+1
			break
		}
	}
	if name == "" {
		d.res.Warn(file, "has no module directive; its tasks are not listed")
		return
	}
	dir := task.Dir(file)
	for _, c := range []struct{ name, kind string }{{"build", abi.KindBuild}, {"test", abi.KindTest}, {"vet", abi.KindLint}} {
		d.res.Add(abi.Task{Name: c.name, Runner: "go", Command: "go " + c.name + " ./...", Cwd: dir, File: file, Line: line, Kind: c.kind, Description: "module " + name})
	}
	if d.generates(dir) {
		d.res.Add(abi.Task{Name: "generate", Runner: "go", Command: "go generate ./...", Cwd: dir, File: file, Line: line, Kind: abi.KindBuild, Description: "module " + name + " has //go:generate directives"})
	}
}

// generates says whether a .go file of the module's folder, or of a
// folder right below it, holds //go:generate in its first 8 KiB (where
// the directives usually sit, by the package clause). Deeper packages and
// the rest of each file are not looked at: the look stays cheap on large
// trees.
func (d *discoverer) generates(dir string) bool {
	files, dirs := 0, 0
	var scan func(dir string, depth int) bool
	scan = func(dir string, depth int) bool {
		for _, name := range d.fsys.List(dir) {
			switch {
			case strings.HasSuffix(name, "/"):
				if depth == 0 && dirs < maxGoDirs && name != "testdata/" && !strings.HasPrefix(name, "_") && !strings.HasPrefix(name, ".") {
					dirs++
					if scan(path.Join(dir, name), 1) {
						return true
					}
				}
			case strings.HasSuffix(name, ".go") && files < maxGoFiles:
				files++
				if data, err := d.fsys.ReadHead(path.Join(dir, name), headBytes); err == nil && bytes.Contains(data, []byte("//go:generate ")) {
					return true
				}
			}
		}
		return false
	}
	return scan(dir, 0)
}

// work adds the modules a go.work uses that the walk did not offer.
func (d *discoverer) work(file string) {
	data, ok := d.res.Read(d.fsys, file)
	if !ok {
		return
	}
	dir := task.Dir(file)
	inUse := false
	for _, l := range lines(data) {
		l = strings.TrimSpace(l)
		if i := strings.Index(l, "//"); i >= 0 {
			l = strings.TrimSpace(l[:i])
		}
		var use string
		switch {
		case l == "use (":
			inUse = true
		case inUse && l == ")":
			inUse = false
		case inUse && l != "":
			use = l
		case strings.HasPrefix(l, "use ") && !strings.HasSuffix(l, "("):
			use = strings.TrimSpace(l[4:])
		}
		if use == "" {
			continue
		}
		if p, ok := task.Join(dir, strings.Trim(use, `"`)); ok && !d.done[path.Join(p, "go.mod")] {
			if d.fsys.Exists(path.Join(p, "go.mod")) {
				d.module(path.Join(p, "go.mod"))
			} else {
				d.res.Warn(file, "uses %s, which has no go.mod", use)
			}
		}
	}
}

func lines(data []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

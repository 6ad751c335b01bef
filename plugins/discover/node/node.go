// Package node finds the scripts of package.json files and the package
// manager that runs them: the packageManager field, else the lock file
// (pnpm-lock.yaml, yarn.lock, bun.lock(b), package-lock.json), looked for
// from the workspace's folder for a workspace member (the workspaces field,
// or pnpm-workspace.yaml, takes it in), else from the package's folder up
// to the root (a broken pnpm-workspace.yaml is a warning). A package that a
// workspace's "!" globs leave out is no task of the project unless it names
// its own manager, nor is a package of a yarn 2+ project that is none of
// its workspaces (yarn refuses to run it). Every script is a task,
// lifecycle scripts (prepare, postinstall …) and pre/post scripts too, of
// the kind of the script they wrap; where the manager runs pre and post
// scripts on its own (npm, yarn 1, pnpm when its .npmrc says so) the
// description says when.
package node

import (
	"encoding/json"
	"path"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"package.json"}

// lifecycle are the scripts the package manager runs on its own events
// (install, pack, publish, version), by the command that runs them.
var lifecycle = map[string]string{
	"preinstall": "install", "install": "install", "postinstall": "install", "dependencies": "install",
	"preprepare": "install and pack", "prepare": "install and pack", "postprepare": "install and pack",
	"prepublish": "install and publish", "prepublishOnly": "publish", "publish": "publish", "postpublish": "publish",
	"prepack": "pack", "postpack": "pack", "preversion": "version", "version": "version", "postversion": "version",
}

// manager is a package manager and whether it runs pre/post scripts.
type manager struct {
	name  string
	hooks bool
}

type discoverer struct {
	fsys  task.FS
	res   *task.Result
	pkgs  map[string]*pkg   // by folder
	globs map[string][]glob // workspace member globs, by folder
	// What each folder says of its manager, found once: every package
	// below a folder asks it, and its .npmrc may be megabytes.
	managers map[string]found
}

// found is what managerAt found in a folder.
type found struct {
	m  manager
	ok bool
}

// maxGlobs bounds the member globs of one workspace read: every package
// below it is matched against each, so a package.json of a million globs
// would cost a million matches a package. Workspaces name their members
// in tens of globs, or list a few hundred folders one by one.
const maxGlobs = 1000

// glob is one workspace member glob, split at its slashes once, with
// consecutive "**" made one.
type glob struct {
	neg  bool
	segs []string
}

// newGlob splits a workspace glob ("packages/*", "!apps/legacy").
func newGlob(g string) glob {
	neg := strings.HasPrefix(g, "!")
	g = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(g, "!"), "./"), "/")
	var segs []string
	for _, s := range strings.Split(strings.TrimSuffix(g, "/"), "/") {
		if s == "**" && len(segs) > 0 && segs[len(segs)-1] == "**" {
			continue
		}
		segs = append(segs, s)
	}
	return glob{neg, segs}
}

// pkg is what matters of one package.json.
type pkg struct {
	packageManager string
}

// Discover lists the scripts of the package.json files in files.
func Discover(fsys task.FS, files []string) *task.Result {
	d := &discoverer{fsys: fsys, res: task.NewResult(), pkgs: map[string]*pkg{}, globs: map[string][]glob{}, managers: map[string]found{}}
	for _, f := range files {
		d.scripts(f)
	}
	return d.res
}

// scripts adds the tasks of one package.json.
func (d *discoverer) scripts(file string) {
	data, ok := d.res.Read(d.fsys, file)
	if !ok {
		return
	}
	var v struct {
		Scripts map[string]string `json:"scripts"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		d.res.Warn(file, "%s; its scripts are not listed", task.JSONError(data, err))
		return
	}
	top, err := task.Members(data, 0)
	if err != nil {
		d.res.Warn(file, "%s", task.JSONError(data, err))
		return
	}
	sm, ok := task.Find(top, "scripts")
	if !ok || string(sm.Value) == "null" {
		return
	}
	scripts, err := task.Members(data, sm.Start)
	if err != nil {
		d.res.Warn(file, "line %d: scripts is not an object", sm.Line)
		return
	}
	dir := task.Dir(file)
	if err := checkPNPMWorkspace(d.fsys, dir); err != nil {
		d.res.Warn(path.Join(dir, "pnpm-workspace.yaml"), "is not valid YAML (%v); workspace members are still listed from their own package.json", err)
	}
	m, ok := d.runner(dir)
	if !ok {
		return
	}
	for _, s := range scripts {
		name := s.Key
		desc, kind := strings.TrimSpace(v.Scripts[name]), ""
		when, isLifecycle := lifecycle[name]
		hook, base := isHook(name, v.Scripts)
		switch {
		case isLifecycle:
			desc += " (lifecycle script of " + when + ")"
			kind = abi.KindOther
		case hook != "":
			kind = task.Kind(base)
			if m.hooks {
				desc += " (" + m.name + " runs it " + hook + " " + base + ")"
			}
		}
		if m.hooks {
			if _, ok := v.Scripts["pre"+name]; ok {
				desc += " (runs pre" + name + " first)"
			}
			if _, ok := v.Scripts["post"+name]; ok {
				desc += " (then post" + name + ")"
			}
		}
		d.res.Add(abi.Task{
			Name: name, Runner: m.name, Command: m.name + " run " + task.Shell(name),
			Cwd: dir, File: file, Line: s.Line, Kind: kind, Description: desc,
		})
	}
}

// isHook says name is the pre or post script of another script, base:
// "before" or "after", and base; "" when it is not.
func isHook(name string, scripts map[string]string) (string, string) {
	for _, p := range []struct{ prefix, when string }{{"pre", "before"}, {"post", "after"}} {
		if base, ok := strings.CutPrefix(name, p.prefix); ok && base != "" {
			if _, ok := scripts[base]; ok {
				return p.when, base
			}
		}
	}
	return "", ""
}

// manager finds the package manager of the package in dir: that of the
// nearest folder, from dir up, that says which it is.
func (d *discoverer) manager(dir string) manager {
	for cur := dir; ; cur = path.Dir(cur) {
		if m, ok := d.managerAt(cur); ok {
			return m
		}
		if cur == "." || cur == "/" {
			return manager{"npm", true}
		}
	}
}

// managerAt reads what the folder dir says of its package manager: the
// packageManager field of its package.json, else its lock file.
func (d *discoverer) managerAt(dir string) (manager, bool) {
	f, ok := d.managers[dir]
	if !ok {
		f.m, f.ok = d.readManagerAt(dir)
		d.managers[dir] = f
	}
	return f.m, f.ok
}

// readManagerAt is managerAt, read from the folder.
func (d *discoverer) readManagerAt(dir string) (manager, bool) {
	if p := d.pkg(dir); p != nil && p.packageManager != "" {
		return fromField(p.packageManager, d.fsys.Exists(path.Join(dir, ".yarnrc.yml")), d.pnpmHooks(dir)), true
	}
	switch {
	case d.fsys.Exists(path.Join(dir, "pnpm-lock.yaml")) || d.fsys.Exists(path.Join(dir, "pnpm-workspace.yaml")):
		return manager{"pnpm", d.pnpmHooks(dir)}, true
	case d.fsys.Exists(path.Join(dir, "yarn.lock")):
		berry := d.fsys.Exists(path.Join(dir, ".yarnrc.yml"))
		return manager{"yarn", !berry}, true
	case d.fsys.Exists(path.Join(dir, "bun.lockb")) || d.fsys.Exists(path.Join(dir, "bun.lock")):
		return manager{"bun", false}, true
	case d.fsys.Exists(path.Join(dir, "package-lock.json")) || d.fsys.Exists(path.Join(dir, "npm-shrinkwrap.json")):
		return manager{"npm", true}, true
	}
	return manager{}, false
}

// fromField reads "pnpm@9.1.0", "yarn@4.0.2" or "npm@10".
func fromField(field string, yarnrc, pnpmHooks bool) manager {
	name, version, _ := strings.Cut(field, "@")
	switch name {
	case "bun":
		return manager{name, false}
	case "pnpm":
		return manager{name, pnpmHooks}
	case "yarn":
		major := strings.SplitN(version, ".", 2)[0]
		return manager{"yarn", major == "1" || (major == "" && !yarnrc)}
	}
	return manager{"npm", true}
}

// pnpmHooks says the .npmrc of dir turns on pnpm's pre/post scripts
// (enable-pre-post-scripts=true; off by default since pnpm 7).
func (d *discoverer) pnpmHooks(dir string) bool {
	data, err := d.fsys.ReadFile(path.Join(dir, ".npmrc"))
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(l, "=")
		if ok && strings.TrimSpace(k) == "enable-pre-post-scripts" && strings.TrimSpace(v) == "true" {
			return true
		}
	}
	return false
}

// pkg reads the package.json of dir, when the walk found one there.
func (d *discoverer) pkg(dir string) *pkg {
	if p, ok := d.pkgs[dir]; ok {
		return p
	}
	p := &pkg{}
	d.pkgs[dir] = p
	// Not only the files offered: an overview of a subfolder is offered
	// none above it, and the root's packageManager still names the manager.
	data, err := d.fsys.ReadFile(path.Join(dir, "package.json"))
	if err != nil {
		return p
	}
	var v struct {
		PackageManager string `json:"packageManager"`
	}
	if json.Unmarshal(task.StripBOM(data), &v) == nil {
		p.packageManager = v.PackageManager
	}
	return p
}

// placement is where a package stands towards the workspace around it.
type placement struct {
	root     string // the workspace whose globs take the package in, else ""
	near     string // the nearest workspace root above the package, else ""
	excluded bool   // a "!" glob of near leaves the package out
}

// place finds the workspace whose member globs take in the package folder
// dir — its manager runs the member's scripts, even when the member holds
// a stray lock file — and the nearest workspace root above it.
func (d *discoverer) place(dir string) placement {
	var pl placement
	for cur := dir; cur != "." && cur != "/"; {
		cur = path.Dir(cur)
		rel := strings.TrimPrefix(dir, cur+"/")
		if cur == "." {
			rel = dir
		}
		globs := d.workspaceGlobs(cur)
		if len(globs) == 0 {
			continue
		}
		if pl.near == "" {
			pl.near, pl.excluded = cur, excludes(globs, rel)
		}
		if member(globs, rel) {
			pl.root = cur
			return pl
		}
	}
	return pl
}

// runner decides who runs the scripts of the package in dir, or that
// nobody does: a package a workspace's "!" globs leave out (fixtures,
// templates) is not part of the project unless it says its own manager,
// and yarn 2+ refuses to run a package of its project that is no
// workspace.
func (d *discoverer) runner(dir string) (manager, bool) {
	pl := d.place(dir)
	if pl.root != "" {
		return d.manager(pl.root), true
	}
	if m, ok := d.managerAt(dir); ok {
		return m, true
	}
	if pl.excluded {
		return manager{}, false
	}
	m := d.manager(dir)
	if pl.near != "" && m.name == "yarn" && !m.hooks {
		return manager{}, false
	}
	return m, true
}

// workspaceGlobs returns the member globs of the workspace rooted at dir:
// pnpm-workspace.yaml's packages, else the workspaces field of its
// package.json (a list, or {packages: […]}); nil when dir is no root.
func (d *discoverer) workspaceGlobs(dir string) []glob {
	if g, ok := d.globs[dir]; ok {
		return g
	}
	var globs []string
	file := path.Join(dir, "pnpm-workspace.yaml")
	if data, err := d.fsys.ReadFile(path.Join(dir, "pnpm-workspace.yaml")); err == nil {
		var v struct {
			Packages []string `yaml:"packages"`
		}
		if yaml.Unmarshal(data, &v) == nil {
			globs = v.Packages
		}
	} else {
		// Read whether offered or not, as pkg does: a folder above the
		// one described is never offered.
		file = path.Join(dir, "package.json")
		if data, err := d.fsys.ReadFile(file); err == nil {
			var v struct {
				Workspaces json.RawMessage `json:"workspaces"`
			}
			if json.Unmarshal(task.StripBOM(data), &v) == nil && len(v.Workspaces) > 0 {
				if json.Unmarshal(v.Workspaces, &globs) != nil {
					var obj struct {
						Packages []string `json:"packages"`
					}
					json.Unmarshal(v.Workspaces, &obj)
					globs = obj.Packages
				}
			}
		}
	}
	if len(globs) > maxGlobs {
		d.res.Warn(file, "names %d workspace globs; the first %d are read", len(globs), maxGlobs)
		globs = globs[:maxGlobs]
	}
	out := make([]glob, len(globs))
	for i, g := range globs {
		out[i] = newGlob(g)
	}
	d.globs[dir] = out
	return out
}

// excludes says a "!" glob matches the folder rel.
func excludes(globs []glob, rel string) bool {
	segs := strings.Split(rel, "/")
	for _, g := range globs {
		if g.neg && matchDirs(g.segs, segs) {
			return true
		}
	}
	return false
}

// member says the folder rel (relative to the workspace root) is taken in
// by the globs: one of them matches and no later "!" glob excludes it. A
// glob matches folder by folder; "**" matches any number of folders.
func member(globs []glob, rel string) bool {
	segs := strings.Split(rel, "/")
	in := false
	for _, g := range globs {
		if matchDirs(g.segs, segs) {
			in = !g.neg
		}
	}
	return in
}

// matchDirs says the pattern pat, a glob split at its slashes, matches
// the folder path segs, "**" matching any number of folders. It fills a
// table of len(pat)×len(segs) cells, one column at a time, after giving
// up on a pattern of more plain elements than segs has folders; with the
// runs of "**" made one (newGlob), the time is bounded by the folder's
// depth squared whatever the pattern (trying every split at every "**"
// was exponential in their number).
func matchDirs(pat, segs []string) bool {
	plain := 0
	for _, p := range pat {
		if p != "**" {
			plain++
		}
	}
	if plain > len(segs) {
		return false
	}
	// ok[j] says pat[i:] matches segs[j:], for i from len(pat) down.
	ok := make([]bool, len(segs)+1)
	ok[len(segs)] = true
	next := make([]bool, len(segs)+1)
	for i := len(pat) - 1; i >= 0; i-- {
		if pat[i] == "**" {
			tail := false
			for j := len(segs); j >= 0; j-- {
				tail = tail || ok[j]
				next[j] = tail
			}
		} else {
			next[len(segs)] = false
			for j := range segs {
				m, _ := path.Match(pat[i], segs[j])
				next[j] = m && ok[j+1]
			}
		}
		ok, next = next, ok
	}
	return ok[0]
}

// checkPNPMWorkspace parses the pnpm-workspace.yaml of dir, if any.
func checkPNPMWorkspace(fsys task.FS, dir string) error {
	data, err := fsys.ReadFile(path.Join(dir, "pnpm-workspace.yaml"))
	if err != nil {
		return nil
	}
	var v struct {
		Packages []string `yaml:"packages"`
	}
	return yaml.Unmarshal(data, &v)
}

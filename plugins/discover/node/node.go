// Package node finds the scripts of package.json files and the package
// manager that runs them: the packageManager field, else the lock file
// (pnpm-lock.yaml, yarn.lock, bun.lock(b), package-lock.json), looked for
// from the workspace's folder for a workspace member (the workspaces field,
// or pnpm-workspace.yaml, takes it in), else from the package's folder up
// to the root (a broken pnpm-workspace.yaml is a warning). Pre and post scripts are hooks where the manager runs them on
// its own (npm, yarn 1) and tasks of their own where it does not (pnpm
// unless its .npmrc enables them, yarn 2+, bun). Lifecycle scripts run by
// install and publish are left out.
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

// lifecycle scripts run by install and publish, not by hand.
var lifecycle = map[string]bool{
	"preinstall": true, "install": true, "postinstall": true, "prepublish": true, "preprepare": true,
	"prepare": true, "postprepare": true, "prepublishOnly": true, "prepack": true, "postpack": true,
	"publish": true, "postpublish": true, "preversion": true, "version": true, "postversion": true,
	"dependencies": true,
}

// manager is a package manager and whether it runs pre/post scripts.
type manager struct {
	name  string
	hooks bool
}

type discoverer struct {
	fsys  task.FS
	res   *task.Result
	pkgs  map[string]*pkg // by folder
	files map[string]bool
	globs map[string][]string // workspace member globs, by folder
}

// pkg is what matters of one package.json.
type pkg struct {
	packageManager string
}

// Discover lists the scripts of the package.json files in files.
func Discover(fsys task.FS, files []string) *task.Result {
	d := &discoverer{fsys: fsys, res: task.NewResult(), pkgs: map[string]*pkg{}, files: map[string]bool{}, globs: map[string][]string{}}
	for _, f := range files {
		d.files[f] = true
	}
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
	m := d.manager(d.workspaceOf(dir))
	for _, s := range scripts {
		name := s.Key
		body := v.Scripts[name]
		if lifecycle[name] {
			continue
		}
		if m.hooks && isHook(name, v.Scripts) {
			continue
		}
		desc := strings.TrimSpace(body)
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
			Cwd: dir, File: file, Line: s.Line, Description: desc,
		})
	}
}

// isHook says name is the pre or post script of another script.
func isHook(name string, scripts map[string]string) bool {
	for _, p := range []string{"pre", "post"} {
		if base, ok := strings.CutPrefix(name, p); ok && base != "" {
			if _, ok := scripts[base]; ok {
				return true
			}
		}
	}
	return false
}

// manager finds the package manager of the package in dir.
func (d *discoverer) manager(dir string) manager {
	for cur := dir; ; cur = path.Dir(cur) {
		if p := d.pkg(cur); p != nil && p.packageManager != "" {
			return fromField(p.packageManager, d.fsys.Exists(path.Join(cur, ".yarnrc.yml")), d.pnpmHooks(cur))
		}
		switch {
		case d.fsys.Exists(path.Join(cur, "pnpm-lock.yaml")) || d.fsys.Exists(path.Join(cur, "pnpm-workspace.yaml")):
			return manager{"pnpm", d.pnpmHooks(cur)}
		case d.fsys.Exists(path.Join(cur, "yarn.lock")):
			berry := d.fsys.Exists(path.Join(cur, ".yarnrc.yml"))
			return manager{"yarn", !berry}
		case d.fsys.Exists(path.Join(cur, "bun.lockb")) || d.fsys.Exists(path.Join(cur, "bun.lock")):
			return manager{"bun", false}
		case d.fsys.Exists(path.Join(cur, "package-lock.json")) || d.fsys.Exists(path.Join(cur, "npm-shrinkwrap.json")):
			return manager{"npm", true}
		}
		if cur == "." || cur == "/" {
			return manager{"npm", true}
		}
	}
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
	file := path.Join(dir, "package.json")
	if !d.files[file] {
		return p
	}
	data, err := d.fsys.ReadFile(file)
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

// workspaceOf returns the folder of the workspace whose member globs take
// in the package folder dir — its manager runs the member's scripts, even
// when the member holds a stray lock file — or dir itself.
func (d *discoverer) workspaceOf(dir string) string {
	for cur := dir; cur != "." && cur != "/"; {
		cur = path.Dir(cur)
		rel := strings.TrimPrefix(dir, cur+"/")
		if cur == "." {
			rel = dir
		}
		if member(d.workspaceGlobs(cur), rel) {
			return cur
		}
	}
	return dir
}

// workspaceGlobs returns the member globs of the workspace rooted at dir:
// pnpm-workspace.yaml's packages, else the workspaces field of its
// package.json (a list, or {packages: […]}); nil when dir is no root.
func (d *discoverer) workspaceGlobs(dir string) []string {
	if g, ok := d.globs[dir]; ok {
		return g
	}
	var globs []string
	if data, err := d.fsys.ReadFile(path.Join(dir, "pnpm-workspace.yaml")); err == nil {
		var v struct {
			Packages []string `yaml:"packages"`
		}
		if yaml.Unmarshal(data, &v) == nil {
			globs = v.Packages
		}
	} else if d.files[path.Join(dir, "package.json")] {
		if data, err := d.fsys.ReadFile(path.Join(dir, "package.json")); err == nil {
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
	d.globs[dir] = globs
	return globs
}

// member says the folder rel (relative to the workspace root) is taken in
// by the globs: one of them matches and no later "!" glob excludes it. A
// glob matches folder by folder; "**" matches any number of folders.
func member(globs []string, rel string) bool {
	in := false
	for _, g := range globs {
		neg := strings.HasPrefix(g, "!")
		g = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(g, "!"), "./"), "/")
		if matchDirs(strings.Split(strings.TrimSuffix(g, "/"), "/"), strings.Split(rel, "/")) {
			in = !neg
		}
	}
	return in
}

func matchDirs(pat, segs []string) bool {
	if len(pat) == 0 {
		return len(segs) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(segs); i++ {
			if matchDirs(pat[1:], segs[i:]) {
				return true
			}
		}
		return false
	}
	if len(segs) == 0 {
		return false
	}
	ok, _ := path.Match(pat[0], segs[0])
	return ok && matchDirs(pat[1:], segs[1:])
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

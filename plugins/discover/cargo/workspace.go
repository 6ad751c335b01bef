package cargo

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
)

// maxMembers bounds the folders a workspace's members may name.
const maxMembers = 2000

// workspace is a workspace root and its members, as cargo finds them.
type workspace struct {
	root    *crate
	members map[string]bool // member folders
}

// workspace returns the workspace rooted at the crate root (one with a
// [workspace] table), its members found once: the root package, every
// folder the members globs match, and the path dependencies of members
// that lie inside the root, less the folders exclude names (an explicit,
// glob-free members entry wins over exclude, as in cargo).
func (d *discoverer) workspace(root *crate) *workspace {
	if ws, ok := d.wss[root.dir]; ok {
		return ws
	}
	ws := &workspace{root: root, members: map[string]bool{}}
	d.wss[root.dir] = ws
	// Every pattern is globbed through the host, and every member
	// checked against each exclude: the lists are cut at maxMembers.
	w := root.m.Workspace
	if len(w.Members) > maxMembers || len(w.Exclude) > maxMembers {
		d.res.Warn(root.file, "lists more than %d workspace members or excludes; the first %d of each are read", maxMembers, maxMembers)
		w.Members, w.Exclude = w.Members[:min(len(w.Members), maxMembers)], w.Exclude[:min(len(w.Exclude), maxMembers)]
	}
	if root.m.Package != nil {
		d.addMember(ws, root.dir)
	}
	for _, m := range root.m.Workspace.Members {
		for _, dir := range d.expand(root.dir, m) {
			d.addMember(ws, dir)
		}
	}
	return ws
}

// addMember adds the package in dir and its path dependencies.
func (d *discoverer) addMember(ws *workspace, dir string) {
	if ws.members[dir] || ws.excluded(dir) || len(ws.members) >= maxMembers {
		return
	}
	c := d.crate(dir, false)
	if c.bad || c.m.Package == nil {
		return
	}
	ws.members[dir] = true
	for _, dep := range d.pathDeps(ws, c) {
		if within(dep, ws.root.dir) {
			d.addMember(ws, dep)
		}
	}
}

// pathDeps are the folders of the path dependencies of c, those it
// inherits from [workspace.dependencies] included.
func (d *discoverer) pathDeps(ws *workspace, c *crate) []string {
	var out []string
	for _, deps := range []map[string]any{c.m.Dependencies, c.m.DevDependencies, c.m.BuildDependencies} {
		for _, name := range task.SortedKeys(deps) {
			spec, _ := deps[name].(map[string]any)
			base, p := c.dir, ""
			if s, ok := spec["path"].(string); ok {
				p = s
			} else if inherit, _ := spec["workspace"].(bool); inherit {
				base, p = ws.root.dir, ws.root.workspaceDepPath(name)
			}
			if p == "" {
				continue
			}
			if dir, ok := task.Join(base, p); ok {
				out = append(out, dir)
			}
		}
	}
	return out
}

// workspaceDepPath is the path of the dependency name in the root's
// [workspace.dependencies], or "".
func (c *crate) workspaceDepPath(name string) string {
	spec, _ := c.m.Workspace.Dependencies[name].(map[string]any)
	p, _ := spec["path"].(string)
	return p
}

// excluded says exclude names the folder dir and no glob-free members
// entry does.
func (ws *workspace) excluded(dir string) bool {
	under := func(list []string, literal bool) bool {
		for _, e := range list {
			if literal && strings.ContainsAny(e, "*?[") {
				continue
			}
			if p, ok := task.Join(ws.root.dir, e); ok && within(dir, p) {
				return true
			}
		}
		return false
	}
	w := ws.root.m.Workspace
	return under(w.Exclude, false) && !under(w.Members, true)
}

// memberDirs describes the members: their folders, sorted, the first few.
func (ws *workspace) memberDirs() string {
	dirs := task.SortedKeys(ws.members)
	if len(dirs) > 8 {
		return strings.Join(dirs[:8], ", ") + fmt.Sprintf(" and %d more", len(dirs)-8)
	}
	return strings.Join(dirs, ", ")
}

// workspaceOf finds the workspace of the package c as cargo does: the
// [package] workspace key, else the nearest root above (or at) it that
// does not exclude it. It returns the file of that root in refused when
// the root does not take the package in: cargo refuses to build it.
func (d *discoverer) workspaceOf(c *crate) (ws *workspace, refused string) {
	if c.m.Workspace != nil {
		return d.workspace(c), ""
	}
	check := func(root *crate) (*workspace, string, bool) {
		if root.bad || root.m.Workspace == nil {
			return nil, "", false
		}
		ws := d.workspace(root)
		switch {
		case ws.members[c.dir]:
			return ws, "", true
		case ws.excluded(c.dir):
			return nil, "", false
		}
		return nil, root.file, true
	}
	if p := c.m.Package.Workspace; p != "" {
		if dir, ok := task.Join(c.dir, p); ok {
			if ws, refused, ok := check(d.crate(dir, false)); ok {
				return ws, refused
			}
		}
		return nil, ""
	}
	for cur := c.dir; cur != "."; {
		cur = path.Dir(cur)
		if !d.fsys.Exists(path.Join(cur, "Cargo.toml")) {
			continue
		}
		if ws, refused, ok := check(d.crate(cur, false)); ok {
			return ws, refused
		}
	}
	return nil, ""
}

// expand returns the folders below root that the members entry pattern
// names and that hold a Cargo.toml; each element may be a glob.
func (d *discoverer) expand(root, pattern string) []string {
	dirs := []string{root}
	for _, elem := range strings.Split(strings.Trim(path.Clean(pattern), "/"), "/") {
		var next []string
		for _, dir := range dirs {
			if !strings.ContainsAny(elem, "*?[") {
				if p, ok := task.Join(dir, elem); ok {
					next = append(next, p)
				}
				continue
			}
			for _, e := range d.fsys.List(dir) {
				name, isDir := strings.CutSuffix(e, "/")
				if ok, _ := path.Match(elem, name); ok && isDir && !strings.HasPrefix(name, ".") {
					next = append(next, path.Join(dir, name))
				}
			}
		}
		if dirs = next; len(dirs) > maxMembers {
			dirs = dirs[:maxMembers]
		}
	}
	var out []string
	for _, dir := range dirs {
		if d.fsys.Exists(path.Join(dir, "Cargo.toml")) {
			out = append(out, dir)
		}
	}
	slices.Sort(out)
	return out
}

// within says the folder dir is inside the folder root, or is it.
func within(dir, root string) bool {
	return root == "." || dir == root || strings.HasPrefix(dir, root+"/")
}

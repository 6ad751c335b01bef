// Package maven finds the tasks of Maven builds: the lifecycle phases
// (clean, compile, test, package, verify, install) of each root pom.xml
// (one no other pom lists as a module), test and package of every module
// of its reactor with -pl (modules of modules too, by path), and verify
// with -P for every profile of the reactor's poms. The wrapper (./mvnw) is
// used when present. Modules that only a profile adds are left to that
// profile.
package maven

import (
	"path"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"pom.xml"}

// maxModules bounds a reactor.
const maxModules = 1000

// phases are the lifecycle phases listed for a root pom. deploy and site
// publish to remote servers and are left out.
var phases = []struct{ name, kind, desc string }{
	{"clean", abi.KindOther, "delete the build output"},
	{"compile", abi.KindBuild, "compile the sources"},
	{"test", abi.KindTest, "run the unit tests"},
	{"package", abi.KindBuild, "build the jar or war"},
	{"verify", abi.KindTest, "run the integration tests and checks"},
	{"install", abi.KindBuild, "install the artifacts in the local repository"},
}

type discoverer struct {
	fsys task.FS
	res  *task.Result
	poms map[string]*pom // by file
}

// Discover lists the tasks of the pom.xml files in files.
func Discover(fsys task.FS, files []string) *task.Result {
	d := &discoverer{fsys: fsys, res: task.NewResult(), poms: map[string]*pom{}}
	members := map[string]bool{}
	for _, f := range files {
		p := d.pom(f, true)
		if p == nil {
			continue
		}
		for _, m := range append(p.modules, p.profileModules...) {
			if file, ok := moduleFile(f, m.name); ok {
				members[file] = true
			}
		}
	}
	for _, f := range files {
		if p := d.poms[f]; p != nil && !members[f] {
			d.root(p)
		}
	}
	return d.res
}

// pom reads and parses a pom once; nil when it cannot be.
func (d *discoverer) pom(file string, offered bool) *pom {
	if p, ok := d.poms[file]; ok {
		return p
	}
	d.poms[file] = nil
	var data []byte
	if offered {
		var ok bool
		if data, ok = d.res.Read(d.fsys, file); !ok {
			return nil
		}
	} else {
		b, err := d.fsys.ReadFile(file)
		if err != nil {
			return nil
		}
		data = task.StripBOM(b)
	}
	p, err := parse(file, data)
	if err != nil {
		if offered {
			d.res.Warn(file, "is not valid XML (%v); its tasks are not listed", err)
		}
		return nil
	}
	d.poms[file] = p
	return p
}

// root adds the tasks of a root pom and its reactor.
func (d *discoverer) root(p *pom) {
	dir := task.Dir(p.file)
	cmd := "mvn"
	if d.fsys.Exists(path.Join(dir, "mvnw")) {
		cmd = "./mvnw"
	}
	add := func(name, args, kind, file string, line int, desc string) {
		d.res.Add(abi.Task{Name: name, Runner: "maven", Command: cmd + " " + args, Cwd: dir, File: file, Line: line, Kind: kind, Description: desc})
	}
	for _, ph := range phases {
		add(ph.name, ph.name, ph.kind, p.file, p.line, ph.desc)
	}
	reactor := d.reactor(p)
	for _, r := range reactor[1:] {
		pl := task.Shell(r.rel)
		for _, ph := range []string{"test", "package"} {
			add(ph+" -pl "+r.rel, "-pl "+pl+" "+ph, task.Kind(ph), r.from, r.line, "module "+r.rel)
		}
	}
	seen := map[string]bool{}
	for _, r := range reactor {
		if r.pom == nil {
			continue
		}
		for _, pr := range r.pom.profiles {
			if pr.id == "" || seen[pr.id] {
				continue
			}
			seen[pr.id] = true
			desc := "verify with the profile " + pr.id
			if pr.activeByDefault {
				desc += " (active by default)"
			}
			kind := task.Kind(pr.id)
			if kind == abi.KindOther {
				kind = abi.KindTest
			}
			add("verify -P "+pr.id, "-P "+task.Shell(pr.id)+" verify", kind, r.pom.file, pr.line, desc)
		}
	}
}

// member is one pom of a reactor: its folder relative to the root's, the
// pom that lists it and where.
type member struct {
	rel, from string
	line      int
	pom       *pom // nil when it could not be read
}

// reactor lists the root and its modules, breadth first, as Maven builds
// them (modules that only a profile adds are left out).
func (d *discoverer) reactor(root *pom) []member {
	rootDir := task.Dir(root.file)
	out := []member{{rel: ".", pom: root}}
	seen := map[string]bool{root.file: true}
	for i := 0; i < len(out) && len(out) < maxModules; i++ {
		p := out[i].pom
		if p == nil {
			continue
		}
		for _, m := range p.modules {
			file, ok := moduleFile(p.file, m.name)
			if !ok || seen[file] {
				continue
			}
			seen[file] = true
			rel := task.Dir(file)
			if rootDir != "." {
				rel = rel[len(rootDir)+1:]
			}
			out = append(out, member{rel: rel, from: p.file, line: m.line, pom: d.pom(file, false)})
		}
	}
	return out
}

// moduleFile is the pom of the module name listed by the pom from: a
// folder holding pom.xml, or a pom file.
func moduleFile(from, name string) (string, bool) {
	p, ok := task.Join(task.Dir(from), name)
	if !ok {
		return "", false
	}
	if path.Ext(p) == ".xml" {
		return p, true
	}
	return path.Join(p, "pom.xml"), true
}

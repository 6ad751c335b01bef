// Package just finds the recipes of justfiles, with the comment above each
// as its description (or a [doc("…")] attribute), as just resolves them:
// the recipes of imported files (import, import?) are the justfile's own,
// and those of modules (mod NAME, mod NAME 'path', mod?) run as
// `just NAME::RECIPE`, modules within modules too. Aliases are tasks that
// say which recipe they stand for. Private recipes and aliases (a name
// starting with _ or a [private] attribute), settings and variables are
// left out.
package just

import (
	"path"
	"strconv"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"justfile", "Justfile", ".justfile"}

// maxDepth bounds chains of imports and modules, and maxFiles the files
// read for one justfile: a file may be imported along many paths, and ten
// files that each import the ten of the next level reach 10^8 reads in
// eight levels (real justfiles import a few).
const (
	maxDepth = 8
	maxFiles = 256
)

var (
	recipeRE = task.Regexp(`^@?([A-Za-z_][A-Za-z0-9_-]*)(\s[^:]*)?:([^=]|$)`)
	docRE    = task.Regexp(`doc\(\s*["']([^"']*)["']\s*\)`)
	aliasRE  = task.Regexp(`^alias\s+([A-Za-z_][A-Za-z0-9_-]*)\s*:=\s*([A-Za-z_][A-Za-z0-9_:-]*)`)
	importRE = task.Regexp(`^import(\?)?\s+(?:'([^']*)'|"([^"]*)")`)
	allowRE  = task.Regexp(`^set\s+allow-duplicate-recipes(\s*:=\s*true)?\s*$`)
	modRE    = task.Regexp(`^mod(\?)?\s+([A-Za-z_][A-Za-z0-9_-]*)(?:\s+(?:'([^']*)'|"([^"]*)"))?\s*$`)
)

// justfile is what one file and its imports define.
type justfile struct {
	tasks   []abi.Task // recipes and aliases, with names relative to the file
	names   map[string]bool
	defined map[string]string // every recipe, private ones too: where it is
	dup     string            // the first recipe defined twice, where
	allow   bool              // set allow-duplicate-recipes
	files   int               // imports and modules read (maxFiles)
	bytes   int               // their bytes, at each import (task.MaxIncluded)
}

type discoverer struct {
	fsys task.FS
	res  *task.Result
}

// Discover lists the recipes of the justfiles in files.
func Discover(fsys task.FS, files []string) *task.Result {
	d := &discoverer{fsys: fsys, res: task.NewResult()}
	for _, f := range files {
		data, ok := d.res.Read(fsys, f)
		if !ok {
			continue
		}
		jf := &justfile{names: map[string]bool{}, defined: map[string]string{}}
		d.parse(jf, f, data, "", 0, map[string]bool{f: true})
		if jf.dup != "" && !jf.allow {
			d.res.Warn(f, "just refuses this justfile: %s; its recipes are not listed", jf.dup)
			continue
		}
		for _, t := range jf.tasks {
			t.Cwd = task.Dir(f)
			d.res.Add(t)
		}
	}
	return d.res
}

// parse reads the lines of file into jf; prefix ("mod::") names the
// module it belongs to. The file's own recipes come first: they win over
// imported ones of the same name.
func (d *discoverer) parse(jf *justfile, file string, data []byte, prefix string, depth int, seen map[string]bool) {
	var comment []string
	private, doc := false, ""
	type later struct {
		line     int
		optional bool
		kind     string // "import" or "mod"
		name     string // of a module
		rel      string
	}
	var follow []later
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case line == "" || line[0] == ' ' || line[0] == '\t':
			comment, private, doc = nil, false, ""
			continue
		case strings.HasPrefix(line, "#"):
			if !strings.HasPrefix(line, "#!") {
				comment = append(comment, strings.TrimSpace(strings.TrimPrefix(line, "#")))
			}
			continue
		case strings.HasPrefix(line, "["):
			private = private || strings.Contains(line, "private")
			if m := docRE().FindStringSubmatch(line); m != nil {
				doc = m[1]
			}
			continue
		}
		desc := doc
		if desc == "" {
			desc = strings.Join(comment, " ")
		}
		if m := importRE().FindStringSubmatch(line); m != nil {
			follow = append(follow, later{line: i + 1, optional: m[1] != "", kind: "import", rel: m[2] + m[3]})
		} else if m := modRE().FindStringSubmatch(line); m != nil {
			if !private {
				follow = append(follow, later{line: i + 1, optional: m[1] != "", kind: "mod", name: m[2], rel: m[3] + m[4]})
			}
		} else if m := aliasRE().FindStringSubmatch(line); m != nil {
			if !private && !strings.HasPrefix(m[1], "_") {
				jf.add(abi.Task{Name: prefix + m[1], File: file, Line: i + 1, Kind: task.Kind(m[2]), Description: "alias for " + prefix + m[2]})
			}
		} else if allowRE().MatchString(line) {
			jf.allow = true
		} else if m := recipeRE().FindStringSubmatch(line); m != nil {
			word := strings.Fields(line)[0]
			if word == "set" || word == "export" {
				break
			}
			at := file + ":" + strconv.Itoa(i+1)
			if first, ok := jf.defined[prefix+m[1]]; ok && jf.dup == "" {
				jf.dup = "the recipe " + prefix + m[1] + " is defined at " + first + " and again at " + at
			}
			jf.defined[prefix+m[1]] = at
			if !private && !strings.HasPrefix(m[1], "_") {
				jf.add(abi.Task{Name: prefix + m[1], File: file, Line: i + 1, Description: desc})
			}
		}
		comment, private, doc = nil, false, ""
	}
	for _, l := range follow {
		if depth >= maxDepth {
			d.res.Warn(file, "line %d: imports and modules nest deeper than %d; %s was not read", l.line, maxDepth, l.rel+l.name)
			continue
		}
		src := d.source(task.Dir(file), l.kind, l.name, l.rel)
		if src == "" || seen[src] {
			if src == "" && !l.optional {
				d.res.Warn(file, "line %d: the %s %s was not found", l.line, l.kind, strings.TrimSpace(l.name+" "+l.rel))
			}
			continue
		}
		if jf.files++; jf.files > maxFiles {
			if jf.files == maxFiles+1 {
				d.res.Warn(file, "line %d: the justfile imports more than %d files; %s and those after it were not read", l.line, maxFiles, src)
			}
			continue
		}
		if jf.bytes > task.MaxIncluded {
			continue // said once, below
		}
		data, err := d.fsys.ReadFile(src)
		if err != nil {
			d.res.Warn(file, "line %d: %s could not be read: %v", l.line, src, err)
			continue
		}
		if jf.bytes += len(data); jf.bytes > task.MaxIncluded {
			d.res.Warn(file, "line %d: the justfile imports more than %d MiB, counting a file at each import; %s and those after it were not read", l.line, task.MaxIncluded>>20, src)
			continue
		}
		seen[src] = true
		if l.kind == "import" {
			d.parse(jf, src, task.StripBOM(data), prefix, depth+1, seen)
		} else {
			d.parse(jf, src, task.StripBOM(data), prefix+l.name+"::", depth+1, seen)
		}
		delete(seen, src)
	}
}

// add records a recipe or alias unless the name is taken.
func (jf *justfile) add(t abi.Task) {
	if jf.names[t.Name] {
		return
	}
	jf.names[t.Name] = true
	t.Runner, t.Command = "just", "just "+task.Shell(t.Name)
	jf.tasks = append(jf.tasks, t)
}

// source finds the file of an import (rel, relative to dir) or of a
// module: rel when given (a file, or a folder holding mod.just or a
// justfile), else NAME.just, NAME/mod.just, NAME/justfile or
// NAME/.justfile beside the file that declares it. "" when none exists.
func (d *discoverer) source(dir, kind, name, rel string) string {
	if kind == "import" {
		if p, ok := task.Join(dir, rel); ok && d.fsys.Exists(p) {
			return p
		}
		return ""
	}
	var cands []string
	if rel != "" {
		p, ok := task.Join(dir, rel)
		if !ok {
			return ""
		}
		cands = []string{p, path.Join(p, "mod.just"), path.Join(p, "justfile"), path.Join(p, "Justfile"), path.Join(p, ".justfile")}
	} else {
		base := path.Join(dir, name)
		cands = []string{base + ".just", path.Join(base, "mod.just"), path.Join(base, "justfile"), path.Join(base, "Justfile"), path.Join(base, ".justfile")}
	}
	for _, c := range cands {
		if d.fsys.Exists(c) && d.fsys.List(c) == nil {
			return c
		}
	}
	return ""
}

package gomod

import (
	"bytes"
	"cmp"
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
)

// pattern finds, in one search of the .go files, the lines that matter:
// package main clauses, //go:generate directives and ignore build
// constraints (a file go never builds: often a generator that is package
// main beside a library). It is plain ASCII — no \b or \s, which make
// ripgrep's search of a large tree several times slower — and each line
// found is checked again with wanted.
const pattern = `^(package main|//go:generate[ \t]|//go:build[ \t].*ignore)`

// linePattern is the exact test of a line pattern found, which wanted
// makes by hand: inside wasm a regexp match costs dozens of calls a line,
// and Go's tree has thousands of such lines.
const linePattern = `^(package main\s*(//.*)?$|//go:generate\s|//go:build\s.*\bignore\b)`

// wanted reports whether line matches linePattern.
func wanted(line string) bool {
	switch {
	case strings.HasPrefix(line, "package main"):
		rest := strings.TrimLeft(line[len("package main"):], " \t\n\f\r")
		return rest == "" || strings.HasPrefix(rest, "//") && strings.IndexByte(rest, '\n') < 0
	case strings.HasPrefix(line, "//go:generate"):
		return len(line) > len("//go:generate") && isSpace(line[len("//go:generate")])
	case strings.HasPrefix(line, "//go:build"):
		rest := line[len("//go:build"):]
		return rest != "" && isSpace(rest[0]) && hasWord(rest[1:], "ignore")
	}
	return false
}

// isSpace is RE2's \s.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// hasWord reports whether w occurs in s between word boundaries (\b),
// before any line break.
func hasWord(s, w string) bool {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(w)
		if (i == 0 || !isWordByte(s[i-1])) && (end == len(s) || !isWordByte(s[end])) {
			return true
		}
		off = i + 1
	}
}

// isWordByte is RE2's \w.
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// headBytes is how much of a file is read for its package clause.
const headBytes = 8 << 10

// pkgInfo is what the search found in one module.
type pkgInfo struct {
	// mains maps the module-relative folder of each main package to the
	// file and line of its package clause (main.go's when it has one).
	mains map[string]keyLine
	// generate is file:line of the module's first //go:generate.
	generate string
}

// goFile is what the search found in one file.
type goFile struct {
	mod     *module
	rel     string // module-relative path
	main    int    // line of "package main", 0 when none
	ignored bool
}

// packages searches the .go files of every module (d.search) and sorts
// what it finds into the modules, by module folder. Files go never builds as part of ./... — under
// testdata, vendor, or a name starting with . or _ — are left out.
func (d *discoverer) packages() map[string]*pkgInfo {
	out := map[string]*pkgInfo{}
	files := map[string]*goFile{}
	hits := d.search()
	slices.SortFunc(hits, func(a, b task.Hit) int { return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line)) })
	for _, h := range hits {
		if !wanted(strings.TrimSuffix(h.Text, "\r")) {
			continue
		}
		f := files[h.Path]
		if f == nil {
			m, rel := d.owner(h.Path)
			if m == nil || !built(rel) {
				continue
			}
			f = &goFile{mod: m, rel: rel}
			files[h.Path] = f
		}
		info := out[f.mod.dir]
		if info == nil {
			info = &pkgInfo{mains: map[string]keyLine{}}
			out[f.mod.dir] = info
		}
		switch {
		case strings.HasPrefix(h.Text, "//go:generate"):
			if info.generate == "" {
				info.generate = h.Path + ":" + strconv.Itoa(h.Line)
			}
		case strings.HasPrefix(h.Text, "//go:build"):
			f.ignored = true
		case f.main == 0:
			f.main = h.Line
		}
	}
	cands := map[*goFile][]string{} // by the package's first file: its candidates, best first
	byPkg := map[string]*goFile{}
	for _, p := range task.SortedKeys(files) {
		f := files[p]
		if f.main == 0 || f.ignored || strings.HasSuffix(p, "_test.go") {
			continue
		}
		key := f.mod.dir + "\x00" + path.Dir(f.rel)
		first := byPkg[key]
		if first == nil {
			first, byPkg[key] = f, f
		}
		cands[first] = append(cands[first], p)
	}
	for first, ps := range cands {
		slices.SortFunc(ps, func(a, b string) int {
			if better(a, b) {
				return -1
			}
			return 1
		})
		for _, p := range ps[:min(len(ps), 3)] {
			if d.packageName(p) == "main" {
				out[first.mod.dir].mains[path.Dir(first.rel)] = keyLine{p, files[p].main}
				break
			}
		}
	}
	return out
}

// better says the file a names a main package better than b: main.go
// first, then by name.
func better(a, b string) bool {
	if (path.Base(a) == "main.go") != (path.Base(b) == "main.go") {
		return path.Base(a) == "main.go"
	}
	return a < b
}

// search finds the lines of pattern in the .go files of every module, in
// one search from the folder that holds them all: a go.work's modules side
// by side cost one ripgrep run, not one each.
func (d *discoverer) search() []task.Hit {
	tops := d.topDirs()
	if len(tops) == 0 {
		return nil
	}
	top := tops[0]
	for _, t := range tops[1:] {
		top = common(top, t)
	}
	hits, err := d.fsys.Grep(top, "*.go", pattern, d.skippable(top))
	switch {
	case errors.Is(err, task.ErrIncomplete):
		d.res.Warn(d.mods[0].file, "the search of the modules' .go files stopped at its bound; some go run and go generate tasks may be missing")
	case err != nil:
		d.res.Warn(d.mods[0].file, "the modules' .go files could not be searched (%v); go run and go generate tasks are missing", err)
	}
	return hits
}

// packageName reads the package clause of a .go file: the line "package
// main" found by the search may sit in a string of another package.
func (d *discoverer) packageName(file string) string {
	head, err := d.fsys.ReadHead(file, headBytes)
	if err != nil {
		return ""
	}
	// Line by line, stopping at the clause: inside wasm every byte looked
	// at costs, and the clause is usually within the first lines of the
	// 8 KiB read.
	inComment := false
	for rest := head; len(rest) > 0; {
		var raw []byte
		raw, rest, _ = bytes.Cut(rest, []byte{'\n'})
		l := bytes.TrimSpace(raw)
		if inComment {
			if i := bytes.Index(l, []byte("*/")); i >= 0 {
				inComment, l = false, bytes.TrimSpace(l[i+2:])
			} else {
				continue
			}
		}
		if bytes.HasPrefix(l, []byte("/*")) && !bytes.Contains(l[2:], []byte("*/")) {
			inComment = true
			continue
		}
		if name, ok := bytes.CutPrefix(l, []byte("package ")); ok {
			if f := bytes.Fields(name); len(f) > 0 {
				return string(f[0])
			}
			return ""
		}
		if len(l) > 0 && !bytes.HasPrefix(l, []byte("//")) && !bytes.HasPrefix(l, []byte("/*")) {
			return ""
		}
	}
	return ""
}

// topDirs are the module folders that lie in no other module's folder.
func (d *discoverer) topDirs() []string {
	var out []string
	for _, m := range d.mods {
		if !slices.ContainsFunc(d.mods, func(o *module) bool { return o != m && within(m.dir, o.dir) }) {
			out = append(out, m.dir)
		}
	}
	return out
}

// owner returns the module whose folder holds the file p — the deepest —
// and p relative to it.
func (d *discoverer) owner(p string) (*module, string) {
	for cur := path.Dir(p); ; cur = path.Dir(cur) {
		if m := d.byDir[cur]; m != nil {
			if cur == "." {
				return m, p
			}
			return m, strings.TrimPrefix(p, cur+"/")
		}
		if cur == "." || cur == "/" {
			return nil, ""
		}
	}
}

// notBuilt are the folders go never builds as part of ./... (with vendor,
// which task.SkipDirs holds); built drops what the search finds in them.
var notBuilt = []string{"testdata", ".*", "_*"}

// skippable are the notBuilt folders the search from top need not enter:
// those that hold no module of their own. Go's tree keeps modules in _asm
// and _gen folders, whose files go builds from there.
func (d *discoverer) skippable(top string) []string {
	var skip []string
	for _, g := range notBuilt {
		holds := slices.ContainsFunc(d.mods, func(m *module) bool {
			for e := range strings.SplitSeq(strings.TrimPrefix(strings.TrimPrefix(m.dir, top), "/"), "/") {
				if ok, _ := path.Match(g, e); ok {
					return true
				}
			}
			return false
		})
		if !holds {
			skip = append(skip, g)
		}
	}
	return skip
}

// built says go builds the module-relative file rel as part of ./...:
// no element is testdata or vendor or starts with . or _.
func built(rel string) bool {
	for _, e := range strings.Split(rel, "/") {
		if e == "testdata" || e == "vendor" || strings.HasPrefix(e, ".") || strings.HasPrefix(e, "_") {
			return false
		}
	}
	return true
}

// common is the deepest folder that holds both folders a and b.
func common(a, b string) string {
	for !within(b, a) {
		a = path.Dir(a)
	}
	return a
}

// within says the folder dir is inside the folder root, or is it.
func within(dir, root string) bool {
	return root == "." || dir == root || strings.HasPrefix(dir, root+"/")
}

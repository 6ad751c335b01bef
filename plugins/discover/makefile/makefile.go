// Package makefile finds the tasks of Makefiles by reading them: the
// targets declared .PHONY or documented with a "## …" comment (above the
// rule or after it on the same line), through every file they include
// (include, -include and sinclude; names through literal variables,
// globs and $(wildcard …); a missing optional include is no error), "::"
// rules too. A target's line is that of the rule with its recipe. Pattern
// rules, targets named by variables and special targets are left out, and
// nothing is ever evaluated: a $(shell …) is text, and an include that
// needs one is not followed.
package makefile

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the names make reads by default, in its order: it reads the
// first of them its folder holds and no other.
var Files = []string{"GNUmakefile", "makefile", "Makefile"}

// maxIncludeDepth bounds include chains, and maxIncludeFiles the files
// a Makefile and its includes may name to be read: each is a host call,
// and a line of a million names costs a million (real builds include
// tens of files).
const (
	maxIncludeDepth = 8
	maxIncludeFiles = 1000
)

// target is one rule's target as found.
type target struct {
	name, file, doc string
	line            int
	recipe          bool // line is that of the rule with the recipe
}

// parser walks one Makefile and what it includes.
type parser struct {
	fsys    task.FS
	res     *task.Result
	root    string // folder of the top Makefile: make runs there
	seen    map[string]bool
	targets []target
	byName  map[string]int
	phony   map[string]bool
	anyPhon bool
	vars    map[string]*strings.Builder // literal variables, for include paths
	work    int                         // what expansion may still scan and write (maxExpandWork)
	reads   int                         // included files tried (maxIncludeFiles)
	globs   int                         // folder listings made for globs (maxGlobs)
	bound   string                      // the bound an include stopped at, until warned of
	warned  bool                        // a bound was warned of: the first is
	last    []string                    // targets of the last rule, until its recipe
	lastAt  target                      // where that rule is
}

// Discover lists the tasks of the Makefiles in files.
func Discover(fsys task.FS, files []string) *task.Result {
	res := task.NewResult()
	read := map[string]string{} // by folder: the Makefile make reads there
	for _, f := range files {
		if cur, ok := read[task.Dir(f)]; !ok || rank(f) < rank(cur) {
			read[task.Dir(f)] = f
		}
	}
	for _, f := range files {
		if read[task.Dir(f)] != f {
			continue // make reads another file of this folder
		}
		p := &parser{fsys: fsys, res: res, root: task.Dir(f), seen: map[string]bool{}, byName: map[string]int{}, phony: map[string]bool{},
			vars: map[string]*strings.Builder{}, work: maxExpandWork}
		data, ok := res.Read(fsys, f)
		if !ok {
			continue
		}
		p.parse(f, data, 0)
		p.emit()
	}
	return res
}

// rank is the place of a Makefile's name in Files.
func rank(file string) int { return slices.Index(Files, path.Base(file)) }

func (p *parser) emit() {
	for _, t := range p.targets {
		if !p.phony[t.name] && t.doc == "" && (p.anyPhon || !plainWord(t.name)) {
			continue
		}
		p.res.Add(abi.Task{
			Name: t.name, Runner: "make", Command: "make " + task.Shell(t.name),
			Cwd: p.root, File: t.file, Line: t.line, Description: t.doc,
		})
	}
}

// plainWord says a target looks like a task name, not a file.
func plainWord(name string) bool {
	return !strings.ContainsAny(name, "./")
}

// parse reads one file's lines: rules, .PHONY, includes, literal
// variables and doc comments.
func (p *parser) parse(file string, data []byte, depth int) {
	p.seen[file] = true
	var doc []string
	inDefine := 0
	for _, ln := range logicalLines(task.StripBOM(data)) {
		text := ln.text
		trimmed := strings.TrimSpace(text)
		switch {
		case inDefine > 0:
			if f := firstWord(trimmed); f == "endef" {
				inDefine--
			} else if f == "define" {
				inDefine++
			}
			continue
		case strings.HasPrefix(text, "\t"): // a recipe line
			p.recipe()
			doc = nil
			continue
		case strings.HasPrefix(trimmed, "##"):
			doc = append(doc, strings.TrimSpace(strings.TrimLeft(trimmed, "#")))
			continue
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
			doc = nil
			continue // a rule's recipe may still follow
		}
		p.last = nil
		switch w := firstWord(trimmed); w {
		case "define":
			inDefine++
		case "include", "-include", "sinclude":
			p.include(file, strings.TrimSpace(trimmed[len(w):]), w == "include", ln.line, depth)
		case "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "unexport", "vpath", "undefine":
		case "export", "override", "private":
			p.assign(strings.TrimSpace(trimmed[len(w):]))
		default:
			if !p.assign(trimmed) {
				p.rule(file, trimmed, ln.line, doc)
			}
		}
		doc = nil
	}
}

// recipe moves the targets of the rule just read to that rule: it has
// the recipe, so it is where they are defined.
func (p *parser) recipe() {
	for _, name := range p.last {
		if t := &p.targets[p.byName[name]]; !t.recipe {
			t.file, t.line, t.recipe = p.lastAt.file, p.lastAt.line, true
		}
	}
	p.last = nil
}

// assignRE matches a variable assignment: NAME =, :=, ::=, :::=, ?=, += or !=.
var assignRE = task.Regexp(`^([^:#=\s]+)\s*(=|:{1,3}=|\?=|\+=|!=)\s*(.*)$`)

// assign records a variable assignment, and says whether the line is one.
// Only literal values are kept (for include paths); != runs a shell
// command in make and is never kept.
func (p *parser) assign(text string) bool {
	m := assignRE().FindStringSubmatch(text)
	if m == nil {
		return false
	}
	name, op, value := m[1], m[2], m[3]
	old, set := p.vars[name]
	switch {
	case op == "!=":
		value = unknown
	case op == "?=" && set:
		return true
	case op == "+=" && set:
		// Appended in place: a file of a million "A += x" lines is
		// read in linear time, not by copying A a million times.
		old.WriteByte(' ')
		old.WriteString(value)
		return true
	}
	b := &strings.Builder{}
	b.WriteString(value)
	p.vars[name] = b
	return true
}

// rule records the targets of a rule line, if it is one.
func (p *parser) rule(file, text string, line int, above []string) {
	code, trailing, _ := strings.Cut(text, "#")
	i := strings.IndexByte(code, ':')
	if i <= 0 {
		return // something else
	}
	before, after := code[:i], strings.TrimPrefix(code[i+1:], ":") // "::" rules too
	prereqs, inline, hasInline := strings.Cut(after, ";")
	if strings.Contains(prereqs, "=") {
		return // a target-specific variable: "target: VAR = value"
	}
	doc := ""
	if strings.HasPrefix(trailing, "#") { // "target: deps ## doc"
		doc = strings.TrimSpace(strings.TrimLeft(trailing, "#"))
	} else if len(above) > 0 {
		doc = strings.Join(above, " ")
	}
	names := strings.Fields(before)
	if len(names) == 1 {
		// "## name: doc" above the rule, as `make help` scripts write it.
		doc = strings.TrimSpace(strings.TrimPrefix(doc, names[0]+":"))
	}
	var defined []string
	for _, name := range names {
		switch {
		case name == ".PHONY":
			p.anyPhon = true
			for _, n := range strings.Fields(prereqs) {
				p.phony[n] = true
			}
			continue
		case strings.HasPrefix(name, "."), strings.ContainsAny(name, "%$()"):
			continue // special targets, pattern rules, variable names
		}
		defined = append(defined, name)
		if k, ok := p.byName[name]; ok {
			if p.targets[k].doc == "" {
				p.targets[k].doc = doc
			}
			continue
		}
		p.byName[name] = len(p.targets)
		p.targets = append(p.targets, target{name: name, file: file, line: line, doc: doc})
	}
	p.last, p.lastAt = defined, target{file: file, line: line}
	if hasInline && strings.TrimSpace(inline) != "" {
		p.recipe() // "target: deps ; recipe"
	}
}

// include follows an include directive: its file names, after literal
// variables and $(wildcard …) are expanded and glob patterns matched
// (make does both), are relative to the folder make runs in: that of the
// top Makefile. A name that still holds a reference (a $(shell …), a
// variable set by a command) is never evaluated and not followed.
func (p *parser) include(from, args string, required bool, line, depth int) {
	args, _, _ = strings.Cut(args, "#")
	words, ok := p.expand(args, 0)
	defer func() {
		if p.bound != "" && !p.warned {
			p.res.Warn(from, "line %d: %s; the files it names were not read, nor those of any include after it past a bound", line, p.bound)
			p.warned = true
		}
		p.bound = ""
	}()
	if !ok {
		return
	}
	for _, name := range words {
		if strings.Contains(name, "$") {
			continue
		}
		files := []string{name}
		if strings.ContainsAny(name, "*?[") {
			files = p.glob(name)
		}
		for _, f := range files {
			p.includeFile(from, f, required, line, depth)
		}
	}
}

// includeFile reads one included file.
func (p *parser) includeFile(from, name string, required bool, line, depth int) {
	rel, ok := task.Join(p.root, name)
	if !ok || p.seen[rel] {
		return
	}
	if p.reads++; p.reads > maxIncludeFiles {
		p.bound = fmt.Sprintf("the includes name more than %d files", maxIncludeFiles)
		return
	}
	if depth >= maxIncludeDepth {
		p.res.Warn(from, "line %d: includes nest deeper than %d; %s was not read", line, maxIncludeDepth, name)
		return
	}
	data, err := p.fsys.ReadFile(rel)
	if err != nil {
		if required {
			p.res.Warn(from, "line %d: the included file %s could not be read", line, name)
		}
		return
	}
	p.parse(rel, data, depth+1)
}

// glob matches a pattern of the last element of a path ("mk/*.mk")
// against the files of its folder, relative to make's folder.
func (p *parser) glob(pattern string) []string {
	dir, base := path.Split(pattern)
	full, ok := task.Join(p.root, dir)
	if !ok || strings.ContainsAny(dir, "*?[") {
		return nil
	}
	if p.globs++; p.globs > maxGlobs {
		p.bound = fmt.Sprintf("the includes match more than %d globs", maxGlobs)
		return nil
	}
	var out []string
	for _, e := range p.fsys.List(full) {
		if ok, _ := path.Match(base, e); ok && !strings.HasSuffix(e, "/") {
			out = append(out, dir+e)
		}
	}
	return out
}

// logical is a line after backslash continuations are joined, with the
// number of its first physical line.
type logical struct {
	text string
	line int
}

func logicalLines(data []byte) []logical {
	var out []logical
	var cur strings.Builder
	start := 0
	task.SplitLines(data, func(s string, n int) {
		if cur.Len() == 0 {
			start = n
		}
		if strings.HasSuffix(s, "\\") {
			cur.WriteString(strings.TrimSuffix(s, "\\"))
			cur.WriteByte(' ')
			return
		}
		cur.WriteString(s)
		out = append(out, logical{text: cur.String(), line: start})
		cur.Reset()
	})
	if cur.Len() > 0 {
		out = append(out, logical{text: cur.String(), line: start})
	}
	return out
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

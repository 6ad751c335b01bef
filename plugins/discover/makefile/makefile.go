// Package makefile finds the tasks of Makefiles by reading them: the
// targets declared .PHONY or documented with a "## …" comment (above the
// rule or after it on the same line), through the files they include.
// Pattern rules, targets named by variables and special targets are left
// out, and nothing is ever evaluated: a $(shell …) is text.
package makefile

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the names make reads by default.
var Files = []string{"GNUmakefile", "makefile", "Makefile"}

// maxIncludeDepth bounds include chains.
const maxIncludeDepth = 8

// target is one rule's target as found.
type target struct {
	name, file, doc string
	line            int
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
}

// Discover lists the tasks of the Makefiles in files.
func Discover(fsys task.FS, files []string) *task.Result {
	res := task.NewResult()
	for _, f := range files {
		p := &parser{fsys: fsys, res: res, root: task.Dir(f), seen: map[string]bool{}, byName: map[string]int{}, phony: map[string]bool{}}
		data, ok := res.Read(fsys, f)
		if !ok {
			continue
		}
		p.parse(f, data, 0)
		p.emit()
	}
	return res
}

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

// parse reads one file's lines: rules, .PHONY, includes and doc comments.
func (p *parser) parse(file string, data []byte, depth int) {
	p.seen[file] = true
	var doc []string
	inDefine := 0
	lines := logicalLines(task.StripBOM(data))
	for _, ln := range lines {
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
			doc = nil
			continue
		case strings.HasPrefix(trimmed, "##"):
			doc = append(doc, strings.TrimSpace(strings.TrimLeft(trimmed, "#")))
			continue
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
			doc = nil
			continue
		}
		switch w := firstWord(trimmed); w {
		case "define":
			inDefine++
			doc = nil
			continue
		case "include", "-include", "sinclude":
			p.include(file, strings.TrimSpace(trimmed[len(w):]), w == "include", ln.line, depth)
			doc = nil
			continue
		case "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "export", "unexport", "override", "vpath", "undefine", "private":
			doc = nil
			continue
		}
		p.rule(file, trimmed, ln.line, doc)
		doc = nil
	}
}

// rule records the targets of a rule line, if it is one.
func (p *parser) rule(file, text string, line int, above []string) {
	code, trailing, _ := strings.Cut(text, "#")
	i := strings.IndexByte(code, ':')
	if i <= 0 {
		return // an assignment or something else
	}
	before, after := code[:i], code[i+1:]
	if strings.ContainsAny(before, "=") || strings.HasPrefix(after, "=") || strings.HasPrefix(after, ":=") || strings.HasPrefix(after, ":") && strings.HasPrefix(after[1:], "=") {
		return // VAR = a:b, VAR := x, VAR ::= x
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
	for _, name := range names {
		switch {
		case name == ".PHONY":
			p.anyPhon = true
			for _, n := range strings.Fields(after) {
				p.phony[n] = true
			}
			continue
		case strings.HasPrefix(name, "."), strings.ContainsAny(name, "%$()"):
			continue // special targets, pattern rules, variable names
		}
		if k, ok := p.byName[name]; ok {
			if p.targets[k].doc == "" {
				p.targets[k].doc = doc
			}
			continue
		}
		p.byName[name] = len(p.targets)
		p.targets = append(p.targets, target{name: name, file: file, line: line, doc: doc})
	}
}

// include follows the literal paths of an include directive. Paths are
// relative to the folder make runs in: that of the top Makefile.
func (p *parser) include(from, args string, required bool, line, depth int) {
	args, _, _ = strings.Cut(args, "#")
	for _, name := range strings.Fields(args) {
		if strings.ContainsAny(name, "$*?[") {
			continue // computed or wildcard: never evaluated
		}
		rel, ok := task.Join(p.root, name)
		if !ok || p.seen[rel] {
			continue
		}
		if depth >= maxIncludeDepth {
			p.res.Warn(from, "line %d: includes nest deeper than %d; %s was not read", line, maxIncludeDepth, name)
			continue
		}
		data, err := p.fsys.ReadFile(rel)
		if err != nil {
			if required {
				p.res.Warn(from, "line %d: the included file %s could not be read", line, name)
			}
			continue
		}
		p.parse(rel, data, depth+1)
	}
}

// logical is a line after backslash continuations are joined, with the
// number of its first physical line.
type logical struct {
	text string
	line int
}

func logicalLines(data []byte) []logical {
	var out []logical
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var cur strings.Builder
	start, n := 0, 0
	for sc.Scan() {
		n++
		s := strings.TrimSuffix(sc.Text(), "\r")
		if cur.Len() == 0 {
			start = n
		}
		if strings.HasSuffix(s, "\\") {
			cur.WriteString(strings.TrimSuffix(s, "\\"))
			cur.WriteByte(' ')
			continue
		}
		cur.WriteString(s)
		out = append(out, logical{text: cur.String(), line: start})
		cur.Reset()
	}
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

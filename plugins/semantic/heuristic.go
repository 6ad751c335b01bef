package semantic

import (
	"strings"
	"unicode/utf8"

	"github.com/jujutools/juju/plugins/internal/lazyre"
	"github.com/jujutools/juju/sdk/abi"
)

// A pattern finds one kind of definition on a line. The name is the
// submatch called "name"; "recv" names a Go method's receiver type, taken
// as its container.
type pattern struct {
	kind string
	re   *lazyre.Regexp // compiled on first use
	// container: definitions of this kind hold others nested under them
	// (by indentation).
	container bool
}

// p makes a pattern whose expression compiles when it is first used, not
// when the plugin starts: inside wasm the regexp compiler is slow, and every
// instance of the core plugin starts, while these serve only the heuristic
// index of a language.
func p(kind, expr string, container bool) pattern {
	return pattern{kind: kind, re: lazyre.New(unicodeWords(expr)), container: container}
}

// unicodeWords makes every \w of expr match any character past ASCII
// too, as identifiers may be spelt in any script (Go, Python, JavaScript,
// Rust, Java …): RE2's \w is ASCII alone, so `func Größe()` was no
// definition, `type 名前 struct` none either, and `func getÜber()` one
// named get. Unicode's letter classes would be exact but cost ten times
// the compile time (inside wasm, on an instance's first heuristic call);
// the patterns look at code, not strings or comments, where such a
// character is a name's.
func unicodeWords(expr string) string {
	const word = `\w\x{80}-\x{10FFFF}`
	var b strings.Builder
	inClass := false
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case c == '\\' && i+1 < len(expr):
			switch {
			case expr[i+1] != 'w':
				b.WriteString(expr[i : i+2])
			case inClass:
				b.WriteString(word)
			default:
				b.WriteString("[" + word + "]")
			}
			i++
			continue
		case c == '[' && !inClass:
			inClass = true
		case c == ']' && inClass:
			inClass = false
		}
		b.WriteByte(c)
	}
	return b.String()
}

// patterns are the definitions the heuristic index knows, by language
// name (abi.Languages).
var patterns = map[string][]pattern{
	"go": {
		p("method", `^func\s*\(\s*\w*\s*\*?\s*(?P<recv>\w+)(?:\[[^\]]*\])?\s*\)\s*(?P<name>\w+)`, false),
		p("function", `^func\s+(?P<name>\w+)`, false),
		p("struct", `^\s*(?:type\s+)?(?P<name>\w+)(?:\[[^\]]*\])?\s+struct\b`, false),
		p("interface", `^\s*(?:type\s+)?(?P<name>\w+)(?:\[[^\]]*\])?\s+interface\b`, false),
		p("type", `^type\s+(?P<name>\w+)`, false),
		p("constant", `^const\s+(?P<name>\w+)`, false),
		p("variable", `^var\s+(?P<name>\w+)`, false),
	},
	"python": {
		p("class", `^\s*class\s+(?P<name>\w+)`, true),
		p("function", `^\s*(?:async\s+)?def\s+(?P<name>\w+)`, true),
		p("variable", `^(?P<name>[A-Za-z_]\w*)\s*(?::[^=]+)?=[^=]`, false),
	},
	"typescript": tsPatterns,
	"javascript": tsPatterns,
	"rust": {
		p("function", `^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+(?P<name>\w+)`, false),
		p("struct", `^\s*(?:pub(?:\([^)]*\))?\s+)?struct\s+(?P<name>\w+)`, false),
		p("enum", `^\s*(?:pub(?:\([^)]*\))?\s+)?enum\s+(?P<name>\w+)`, false),
		p("interface", `^\s*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?trait\s+(?P<name>\w+)`, true),
		p("class", `^\s*impl(?:<[^>]*>)?\s+(?:[\w:<>]+\s+for\s+)?(?P<name>\w+)`, true),
		p("module", `^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(?P<name>\w+)`, true),
		p("type", `^\s*(?:pub(?:\([^)]*\))?\s+)?type\s+(?P<name>\w+)`, false),
		p("constant", `^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const|static)\s+(?P<name>[A-Z_]\w*)`, false),
	},
	"c":   cPatterns,
	"cpp": cPatterns,
	"java": {
		p("class", `^\s*(?:(?:public|private|protected|static|final|abstract|sealed)\s+)*(?:class|interface|enum|record)\s+(?P<name>\w+)`, true),
		p("method", `^\s*(?:(?:public|private|protected|static|final|abstract|synchronized|native|default)\s+)+[\w<>\[\],.?\s]+?\s+(?P<name>\w+)\s*\(`, false),
	},
	"csharp": {
		p("class", `^\s*(?:(?:public|private|protected|internal|static|sealed|abstract|partial)\s+)*(?:class|interface|enum|struct|record)\s+(?P<name>\w+)`, true),
		p("method", `^\s*(?:(?:public|private|protected|internal|static|virtual|override|async|sealed|abstract)\s+)+[\w<>\[\],.?\s]+?\s+(?P<name>\w+)\s*\(`, false),
	},
	"kotlin": {
		p("class", `^\s*(?:(?:data|sealed|abstract|open|enum|inner|private|internal|public)\s+)*(?:class|interface|object)\s+(?P<name>\w+)`, true),
		p("function", `^\s*(?:(?:private|public|internal|override|suspend|inline|open)\s+)*fun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?(?P<name>\w+)`, false),
	},
	"swift": {
		p("class", `^\s*(?:(?:public|private|internal|open|final)\s+)*(?:class|struct|enum|protocol|extension)\s+(?P<name>\w+)`, true),
		p("function", `^\s*(?:(?:public|private|internal|open|static|override|mutating)\s+)*func\s+(?P<name>\w+)`, false),
	},
	"ruby": {
		p("class", `^\s*(?:class|module)\s+(?:\w+::)*(?P<name>\w+)`, true),
		p("method", `^\s*def\s+(?:self\.)?(?P<name>\w+[?!=]?)`, false),
	},
	"php": {
		p("class", `^\s*(?:(?:abstract|final)\s+)?(?:class|interface|trait|enum)\s+(?P<name>\w+)`, true),
		p("function", `^\s*(?:(?:public|private|protected|static|abstract|final)\s+)*function\s+(?P<name>\w+)`, false),
	},
	"zig": {
		p("function", `^\s*(?:pub\s+)?(?:export\s+)?fn\s+(?P<name>\w+)`, false),
		p("constant", `^\s*(?:pub\s+)?const\s+(?P<name>\w+)\s*=\s*(?:struct|enum|union)`, true),
	},
	"lua": {
		p("function", `^\s*(?:local\s+)?function\s+(?:[\w.]+[.:])?(?P<name>\w+)`, false),
	},
}

// goTypeBlock is the pattern of one type in a Go type ( … ) block.
var goTypeBlock = []pattern{p("type", `^\s+(?P<name>\w+)(?:\[[^\]]*\])?\s+=?\s*\S`, false)}

var tsPatterns = []pattern{
	p("class", `^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+(?P<name>\w+)`, true),
	p("interface", `^\s*(?:export\s+)?interface\s+(?P<name>\w+)`, true),
	p("enum", `^\s*(?:export\s+)?(?:const\s+)?enum\s+(?P<name>\w+)`, false),
	p("type", `^\s*(?:export\s+)?type\s+(?P<name>\w+)\s*(?:<[^>]*>)?\s*=`, false),
	p("function", `^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*(?P<name>\w+)`, false),
	p("function", `^\s*(?:export\s+)?(?:const|let|var)\s+(?P<name>\w+)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:\([^)]*\)|\w+)\s*(?::[^=]+)?=>`, false),
	p("constant", `^(?:export\s+)?const\s+(?P<name>\w+)`, false),
	p("method", `^\s+(?:(?:public|private|protected|static|async|readonly|override|get|set)\s+)*(?P<name>[A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\([^;]*\)\s*(?::[^;{]+)?\{\s*$`, false),
}

var cPatterns = []pattern{
	p("class", `^\s*(?:template\s*<[^>]*>\s*)?(?:class|struct|union)\s+(?P<name>\w+)\s*(?:final\s*)?(?::[^;{]*)?\{?\s*$`, true),
	p("enum", `^\s*(?:typedef\s+)?enum\s+(?:class\s+)?(?P<name>\w+)`, false),
	p("namespace", `^\s*namespace\s+(?P<name>\w+)`, true),
	p("constant", `^\s*#\s*define\s+(?P<name>\w+)`, false),
	p("function", `^(?:[\w:*&<>,]+\s+)+\**(?:\w+::)*(?P<name>~?\w+)\s*\([^;]*$`, false),
}

// keywords are names a pattern can catch on lines that are not
// definitions (if (…) {, for (…) {).
var keywords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true,
	"return": true, "else": true, "do": true, "try": true, "function": true, "new": true, "delete": true, "sizeof": true}

// defn is one definition found in a file.
type defn struct {
	Symbol
	indent    int
	container bool
}

// scanFile finds the definitions in a file's text, nesting each under the
// container definition (class, impl …) whose indented block holds it; Go
// methods go under their receiver type.
func scanFile(path, body string, lang abi.Language) []defn {
	pats := patterns[lang.Name]
	if len(pats) == 0 {
		return nil
	}
	var out []defn
	var open []int // indexes in out of the containers whose block is open
	lines := strings.Split(body, "\n")
	inBlock := false // Go: inside a type ( … ) block
	for i, raw := range lines {
		line := strings.TrimRight(raw, "\r")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || isComment(trimmed) && commentPrefix(line) == 0 {
			continue
		}
		ind := indentOf(line)
		for len(open) > 0 && ind <= out[open[len(open)-1]].indent && !strings.HasPrefix(trimmed, "}") && !strings.HasPrefix(trimmed, ")") {
			open = open[:len(open)-1]
		}
		if lang.Name == "go" {
			switch {
			case strings.HasPrefix(line, "type ("), strings.HasPrefix(line, "const ("), strings.HasPrefix(line, "var ("):
				inBlock = strings.HasPrefix(line, "type")
			case line == ")":
				inBlock = false
			}
			if ind > 0 && !inBlock {
				continue // only top-level Go declarations (and type blocks)
			}
		}
		// A declaration may follow a block comment on its line.
		skip := commentPrefix(line)
		code := line[skip:]
		cands := pats
		if lang.Name == "go" && inBlock && ind > 0 {
			cands = goTypeBlock
		}
		for _, pt := range cands {
			re := pt.re.Get()
			m := re.FindStringSubmatchIndex(code)
			if m == nil {
				continue
			}
			for k := range m {
				if m[k] >= 0 {
					m[k] += skip
				}
			}
			ni := re.SubexpIndex("name")
			name := line[m[2*ni]:m[2*ni+1]]
			if keywords[name] {
				break
			}
			d := defn{Symbol: Symbol{Name: name, Kind: pt.kind, Path: path, Line: i + 1,
				Column: utf8.RuneCountInString(line[:m[2*ni]]) + 1, Text: cutText(line)}, indent: ind, container: pt.container}
			if ri := re.SubexpIndex("recv"); ri > 0 && m[2*ri] >= 0 {
				d.Container = line[m[2*ri]:m[2*ri+1]]
			} else if len(open) > 0 {
				d.Container = out[open[len(open)-1]].NamePath
				if d.Kind == "function" {
					d.Kind = "method"
				}
			}
			d.NamePath = name
			if d.Container != "" {
				d.NamePath = d.Container + "." + name
			}
			out = append(out, d)
			if pt.container {
				open = append(open, len(out)-1)
			}
			break
		}
	}
	return out
}

// commentPrefix is the length of the block comments (/* … */) that open
// line, with the blanks after them; leading indentation stays.
func commentPrefix(line string) int {
	i := len(line) - len(strings.TrimLeft(line, " \t"))
	end := i
	for strings.HasPrefix(line[end:], "/*") {
		j := strings.Index(line[end+2:], "*/")
		if j < 0 {
			break
		}
		end += 2 + j + 2
		end += len(line[end:]) - len(strings.TrimLeft(line[end:], " \t"))
	}
	if end == i {
		return 0
	}
	return end
}

func isComment(s string) bool {
	return strings.HasPrefix(s, "//") || strings.HasPrefix(s, "#") && !strings.HasPrefix(s, "#define") && !strings.HasPrefix(s, "# define") ||
		strings.HasPrefix(s, "/*") || strings.HasPrefix(s, "*") || strings.HasPrefix(s, "--")
}

// indentOf is the width of a line's leading blanks (a tab counts 4).
func indentOf(s string) int {
	n := 0
	for _, r := range s {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

func cutText(s string) string {
	if len(s) <= 300 {
		return s
	}
	i := 300
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// matchNamePath reports whether d answers the name path containers.name:
// its name is name (ignoring case when fuzzy, or containing it), and its
// containers end with containers.
func matchNamePath(namePath, container string, containers []string, name string, fuzzy bool) bool {
	leaf := namePath
	if i := strings.LastIndex(leaf, "."); i >= 0 {
		leaf = leaf[i+1:]
	}
	if fuzzy {
		if !strings.Contains(strings.ToLower(leaf), strings.ToLower(name)) {
			return false
		}
	} else if leaf != name {
		return false
	}
	if len(containers) == 0 {
		return true
	}
	full := strings.Split(strings.Trim(container+"."+strings.TrimSuffix(namePath, leaf), "."), ".")
	var have []string
	for _, s := range full {
		for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == ':' }) {
			if part = strings.Trim(part, "()*&^ "); part != "" {
				have = append(have, part)
			}
		}
	}
	if len(have) < len(containers) {
		return false
	}
	tail := have[len(have)-len(containers):]
	for i, c := range containers {
		if !strings.EqualFold(tail[i], c) && !(fuzzy && strings.Contains(strings.ToLower(tail[i]), strings.ToLower(c))) {
			return false
		}
	}
	return true
}

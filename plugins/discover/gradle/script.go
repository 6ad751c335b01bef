package gradle

import (
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
)

// script is what a build script (or a convention plugin) says that
// matters here, read as text: Gradle runs build scripts to know more.
type script struct {
	file     string
	plugins  []applied
	tasks    []registered
	children []applied // plugins a subprojects {} or allprojects {} block applies
	all      bool      // that block is allprojects {}
}

// applied is one plugin id and the line that applies it.
type applied struct {
	id   string
	line int
}

// registered is a task the script registers.
type registered struct {
	name, desc string
	line       int
}

var (
	pluginsBlockRE = task.Regexp(`(?m)^\s*plugins\s*\{`)
	// Inside plugins {}: id("x"), id 'x', kotlin("jvm"), alias(libs.plugins.a.b),
	// `java-library`, or a bare core plugin name.
	idRE     = task.Regexp(`(?m)^\s*(?:id\s*\(?\s*["']([^"']+)["']|kotlin\s*\(\s*["']([^"']+)["']\s*\)|alias\s*\(\s*libs\.plugins\.([\w.]+)\s*\)|` + "`([\\w-]+)`" + `|([a-z][\w-]*)\s*$)`)
	applyRE  = task.Regexp(`(?m)^\s*apply\s*(?:\(\s*plugin\s*=\s*|plugin\s*:\s*)["']([^"']+)["']`)
	taskRE   = task.Regexp(`(?m)^\s*(?:tasks\.(?:register|create)\s*(?:<[^>\n]*>)?\s*\(\s*["']([\w.:-]+)["']|task\s*\(\s*["']([\w.-]+)["']|task\s+([A-Za-z_][\w-]*)\b)`)
	descRE   = task.Regexp(`(?m)^\s*description\s*=?\s*(?:"([^"\n]*)"|'([^'\n]*)')`)
	parentRE = task.Regexp(`(?m)^\s*(subprojects|allprojects)\s*\{`)
)

// parseScript reads the plugins a script applies and the tasks it
// registers; catalog maps version-catalog aliases (a.b) to plugin ids.
func parseScript(file string, data []byte, catalog map[string]string) *script {
	s := &script{file: file}
	text := string(data)
	lines := task.NewLines(data)
	var skip [][2]int // the subprojects {} / allprojects {} block
	if m := parentRE().FindStringSubmatchIndex(text); m != nil {
		end := matchBrace(text, m[1]-1)
		skip = append(skip, [2]int{m[0], end})
		s.all = text[m[2]:m[3]] == "allprojects"
		for _, a := range applyRE().FindAllStringSubmatchIndex(text[m[1]:end], -1) {
			off := m[1] + a[0]
			s.children = append(s.children, applied{text[m[1]+a[2] : m[1]+a[3]], lines.At(off + leadingSpace(text[off:]))})
		}
	}
	inSkip := func(off int) bool {
		for _, r := range skip {
			if off >= r[0] && off < r[1] {
				return true
			}
		}
		return false
	}
	blockEnd := 0
	for _, m := range pluginsBlockRE().FindAllStringIndex(text, -1) {
		if inSkip(m[0]) || m[0] < blockEnd {
			continue // a block inside the last: each byte is read once
		}
		end := matchBrace(text, m[1]-1)
		blockEnd = end
		body := strings.TrimSuffix(text[m[1]:end], "}")
		for _, g := range idRE().FindAllStringSubmatchIndex(body, -1) {
			id := ""
			switch {
			case g[2] >= 0:
				id = body[g[2]:g[3]]
			case g[4] >= 0:
				id = "org.jetbrains.kotlin." + body[g[4]:g[5]]
			case g[6] >= 0:
				id = catalog[body[g[6]:g[7]]]
			case g[8] >= 0:
				id = body[g[8]:g[9]]
			case g[10] >= 0:
				id = body[g[10]:g[11]]
			}
			if line := lineOf(body, g[0]); id != "" && !strings.Contains(line, "apply false") {
				s.plugins = append(s.plugins, applied{id, lines.At(m[1] + g[0] + leadingSpace(body[g[0]:]))})
			}
		}
	}
	for _, a := range applyRE().FindAllStringSubmatchIndex(text, -1) {
		if !inSkip(a[0]) {
			s.plugins = append(s.plugins, applied{text[a[2]:a[3]], lines.At(a[0] + leadingSpace(text[a[0]:]))})
		}
	}
	found := taskRE().FindAllStringSubmatchIndex(text, -1)
	for i, m := range found {
		if inSkip(m[0]) {
			continue
		}
		name := ""
		for g := 2; g < len(m); g += 2 {
			if m[g] >= 0 {
				name = text[m[g]:m[g+1]]
			}
		}
		end := len(text)
		if i+1 < len(found) {
			end = found[i+1][0]
		}
		desc := ""
		if d := descRE().FindStringSubmatch(text[m[1]:end]); d != nil {
			desc = d[1] + d[2]
		}
		s.tasks = append(s.tasks, registered{name: name, desc: desc, line: lines.At(m[0] + leadingSpace(text[m[0]:]))})
	}
	return s
}

// matchBrace returns the index just past the brace that closes the one at
// open, or the end of text.
func matchBrace(text string, open int) int {
	depth := 0
	for i := open; i < len(text); i++ {
		switch text[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(text)
}

// lineOf returns the line of s that holds the offset off.
func lineOf(s string, off int) string {
	start := strings.LastIndexByte(s[:off+leadingSpace(s[off:])], '\n') + 1
	end := strings.IndexByte(s[start:], '\n')
	if end < 0 {
		return s[start:]
	}
	return s[start : start+end]
}

// leadingSpace counts the blank characters (line breaks too) s starts with.
func leadingSpace(s string) int {
	return len(s) - len(strings.TrimLeft(s, " \t\r\n"))
}

// Package just finds the recipes of justfiles, with the comment above each
// as its description (or a [doc("…")] attribute). Private recipes (a name
// starting with _ or a [private] attribute), aliases, settings and
// variables are left out. Imports and modules are not followed.
package just

import (
	"regexp"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"justfile", "Justfile", ".justfile"}

var (
	recipeRE = regexp.MustCompile(`^@?([A-Za-z_][A-Za-z0-9_-]*)(\s[^:]*)?:([^=]|$)`)
	docRE    = regexp.MustCompile(`doc\(\s*["']([^"']*)["']\s*\)`)
)

// Discover lists the recipes of the justfiles in files.
func Discover(fsys task.FS, files []string) *task.Result {
	res := task.NewResult()
	for _, f := range files {
		data, ok := res.Read(fsys, f)
		if !ok {
			continue
		}
		var comment []string
		private, doc := false, ""
		for i, line := range strings.Split(string(data), "\n") {
			line = strings.TrimRight(line, "\r")
			switch {
			case line == "" || line[0] == ' ' || line[0] == '\t':
				comment, private, doc = nil, false, ""
			case strings.HasPrefix(line, "#"):
				if !strings.HasPrefix(line, "#!") {
					comment = append(comment, strings.TrimSpace(strings.TrimPrefix(line, "#")))
				}
			case strings.HasPrefix(line, "["):
				private = private || strings.Contains(line, "private")
				if m := docRE.FindStringSubmatch(line); m != nil {
					doc = m[1]
				}
			default:
				m := recipeRE.FindStringSubmatch(line)
				word := strings.Fields(line)[0]
				if m != nil && !private && !strings.HasPrefix(m[1], "_") && word != "alias" && word != "set" && word != "export" && word != "import" && word != "mod" {
					desc := doc
					if desc == "" {
						desc = strings.Join(comment, " ")
					}
					res.Add(abi.Task{Name: m[1], Runner: "just", Command: "just " + m[1], Cwd: task.Dir(f), File: f, Line: i + 1, Description: desc})
				}
				comment, private, doc = nil, false, ""
			}
		}
	}
	return res
}

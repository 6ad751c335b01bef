// Package mise finds the tasks of mise.toml and .mise.toml files: the
// [tasks] table (a command string, a list, or a table with run and
// description); hidden tasks are left out and file tasks are not read.
package mise

import (
	"github.com/pelletier/go-toml/v2"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"mise.toml", ".mise.toml"}

// Discover lists the tasks of the mise files in files.
func Discover(fsys task.FS, files []string) *task.Result {
	res := task.NewResult()
	for _, f := range files {
		data, ok := res.Read(fsys, f)
		if !ok {
			continue
		}
		var v struct {
			Tasks map[string]any `toml:"tasks"`
		}
		if err := toml.Unmarshal(data, &v); err != nil {
			res.Warn(f, "is not valid TOML (%s); its tasks are not listed", task.TOMLError(err))
			continue
		}
		ss := task.Sections(data)
		for _, name := range task.SortedKeys(v.Tasks) {
			desc := ""
			switch t := v.Tasks[name].(type) {
			case string:
				desc = t
			case map[string]any:
				if h, _ := t["hide"].(bool); h {
					continue
				}
				desc, _ = t["description"].(string)
				if r, ok := t["run"].(string); ok && desc == "" {
					desc = r
				}
			}
			line := task.KeyLineOf(ss, "tasks", name)
			if l := task.KeyLineOf(ss, "tasks."+name, ""); l > 0 {
				line = l
			} else if l := task.KeyLineOf(ss, `tasks."`+name+`"`, ""); l > 0 {
				line = l
			}
			res.Add(abi.Task{Name: name, Runner: "mise", Command: "mise run " + task.Shell(name), Cwd: task.Dir(f), File: f, Line: line, Description: desc})
		}
	}
	return res
}

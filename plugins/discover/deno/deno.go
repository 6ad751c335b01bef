// Package deno finds the tasks of deno.json and deno.jsonc files (comments
// and trailing commas allowed): a task is a command string or an object
// with a command and a description.
package deno

import (
	"encoding/json"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"deno.json", "deno.jsonc"}

// Discover lists the tasks of the deno config files in files.
func Discover(fsys task.FS, files []string) *task.Result {
	res := task.NewResult()
	for _, f := range files {
		raw, ok := res.Read(fsys, f)
		if !ok {
			continue
		}
		data := task.StripJSONC(raw)
		var v map[string]json.RawMessage
		if err := json.Unmarshal(data, &v); err != nil {
			res.Warn(f, "%s; its tasks are not listed", task.JSONError(data, err))
			continue
		}
		top, _ := task.Members(data, 0)
		tm, ok := task.Find(top, "tasks")
		if !ok {
			continue
		}
		tasks, err := task.Members(data, tm.Start)
		if err != nil {
			res.Warn(f, "line %d: tasks is not an object", tm.Line)
			continue
		}
		for _, t := range tasks {
			var desc string
			var obj struct {
				Command     string `json:"command"`
				Description string `json:"description"`
			}
			if json.Unmarshal(t.Value, &desc) != nil && json.Unmarshal(t.Value, &obj) == nil {
				desc = obj.Description
				if desc == "" {
					desc = obj.Command
				}
			}
			res.Add(abi.Task{Name: t.Key, Runner: "deno", Command: "deno task " + task.Shell(t.Key), Cwd: task.Dir(f), File: f, Line: t.Line, Description: desc})
		}
	}
	return res
}

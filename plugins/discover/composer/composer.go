// Package composer finds the scripts of composer.json files, with their
// scripts-descriptions; the event hooks Composer runs on its own
// (post-install-cmd, pre-autoload-dump …) are left out.
package composer

import (
	"encoding/json"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"composer.json"}

// Discover lists the scripts of the composer.json files in files.
func Discover(fsys task.FS, files []string) *task.Result {
	res := task.NewResult()
	for _, f := range files {
		data, ok := res.Read(fsys, f)
		if !ok {
			continue
		}
		var v struct {
			Scripts      map[string]json.RawMessage `json:"scripts"`
			Descriptions map[string]string          `json:"scripts-descriptions"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			res.Warn(f, "%s; its scripts are not listed", task.JSONError(data, err))
			continue
		}
		top, _ := task.Members(data, 0)
		sm, ok := task.Find(top, "scripts")
		if !ok {
			continue
		}
		scripts, err := task.Members(data, sm.Start)
		if err != nil {
			res.Warn(f, "line %d: scripts is not an object", sm.Line)
			continue
		}
		for _, s := range scripts {
			if isEvent(s.Key) {
				continue
			}
			desc := v.Descriptions[s.Key]
			if desc == "" {
				var one string
				if json.Unmarshal(s.Value, &one) == nil {
					desc = one
				}
			}
			res.Add(abi.Task{Name: s.Key, Runner: "composer", Command: "composer run-script " + task.Shell(s.Key), Cwd: task.Dir(f), File: f, Line: s.Line, Description: desc})
		}
	}
	return res
}

// isEvent says name is a Composer event (pre-/post-…), run by Composer.
func isEvent(name string) bool {
	return strings.HasPrefix(name, "pre-") || strings.HasPrefix(name, "post-")
}

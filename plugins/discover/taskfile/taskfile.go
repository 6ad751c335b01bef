// Package taskfile finds the tasks of Taskfile.yml files (go-task), with
// their desc (or summary) as description; internal tasks are left out and
// included Taskfiles are not followed.
package taskfile

import (
	"gopkg.in/yaml.v3"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml", "Taskfile.dist.yml", "Taskfile.dist.yaml"}

// Discover lists the tasks of the Taskfiles in files.
func Discover(fsys task.FS, files []string) *task.Result {
	res := task.NewResult()
	for _, f := range files {
		data, ok := res.Read(fsys, f)
		if !ok {
			continue
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			res.Warn(f, "is not valid YAML (%v); its tasks are not listed", err)
			continue
		}
		tasks := lookup(&doc, "tasks")
		if tasks == nil || tasks.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(tasks.Content); i += 2 {
			k, v := tasks.Content[i], tasks.Content[i+1]
			var body struct {
				Desc     string `yaml:"desc"`
				Summary  string `yaml:"summary"`
				Internal bool   `yaml:"internal"`
			}
			if v.Kind == yaml.MappingNode {
				if err := v.Decode(&body); err != nil {
					res.Warn(f, "line %d: task %s: %v", k.Line, k.Value, err)
					continue
				}
			}
			if body.Internal {
				continue
			}
			desc := body.Desc
			if desc == "" {
				desc = body.Summary
			}
			res.Add(abi.Task{Name: k.Value, Runner: "task", Command: "task " + task.Shell(k.Value), Cwd: task.Dir(f), File: f, Line: k.Line, Description: desc})
		}
	}
	return res
}

// lookup returns the value of key in the top mapping of a document.
func lookup(doc *yaml.Node, key string) *yaml.Node {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

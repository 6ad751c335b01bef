package main

import (
	"fmt"
	"path"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// TasksArgs are the arguments of procfile_tasks.
type TasksArgs struct {
	Path string `json:"path,omitempty" desc:"A Procfile to read, relative to the first root. Leave it out to read every Procfile and Procfile.* in the workspace."`
}

// Tasks is the structured content of procfile_tasks.
type Tasks struct {
	Tasks    []abi.Task    `json:"tasks" desc:"One task per process type."`
	Warnings []abi.Warning `json:"warnings,omitempty" desc:"Lines or files that could not be read."`
}

func init() {
	juju.Tool("procfile_tasks", juju.ToolOptions{
		Title: "Procfile tasks",
		Description: "Lists the processes of the workspace's Procfiles (foreman, honcho) as tasks: " +
			"name, the command that starts it, the process's own command line, file and line. " +
			"It only reads the files. Use it to learn how a project's services are started.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
		Output:      Tasks{},
	}, procfileTasks)
	// The same reader serves project_overview as a task discoverer.
	juju.Discoverer("procfile", []string{"Procfile", "Procfile.*"}, discover)
}

func procfileTasks(_ *juju.Call, in TasksArgs) (*juju.Result, error) {
	files := []string{in.Path}
	if in.Path == "" {
		var err error
		if files, err = findProcfiles(); err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, juju.Errorf(abi.NotFound, "no Procfile in the workspace; pass path to read one under another name")
		}
	} else if _, _, err := juju.ReadFile(abi.ReadRequest{Path: in.Path, Length: 1}); err != nil {
		return nil, err // the one file asked for: its error is the answer
	}
	res, err := discover(abi.DiscoverRequest{Discoverer: "procfile", Files: files})
	if err != nil {
		return nil, err
	}
	out := Tasks{Tasks: res.Tasks, Warnings: res.Warnings}
	if out.Tasks == nil {
		out.Tasks = []abi.Task{}
	}
	return juju.Text(summary(out)).WithStructured(out), nil
}

// discover reads the Procfiles named in req and returns their tasks; a file
// it cannot read is a warning, never a failure. It is registered as a task
// discoverer, so project_overview lists these tasks beside the core ones.
func discover(req abi.DiscoverRequest) (*abi.DiscoverResult, error) {
	res := &abi.DiscoverResult{Tasks: []abi.Task{}}
	for _, f := range req.Files {
		tasks, warnings, err := readOne(f)
		if err != nil {
			if juju.IsCode(err, abi.CapabilityDenied) {
				return nil, err // nothing can be read: say so once
			}
			res.Warnings = append(res.Warnings, abi.Warning{File: f, Message: err.Error()})
			continue
		}
		res.Tasks = append(res.Tasks, tasks...)
		res.Warnings = append(res.Warnings, warnings...)
	}
	return res, nil
}

// findProcfiles globs the workspace for Procfile and Procfile.* files.
func findProcfiles() ([]string, error) {
	var files []string
	for _, pattern := range []string{"**/Procfile", "**/Procfile.*"} {
		res, err := juju.Glob(abi.GlobRequest{Pattern: pattern})
		if err != nil {
			return nil, err
		}
		for _, e := range res.Entries {
			if e.Type == abi.TypeFile {
				files = append(files, e.Path)
			}
		}
	}
	return files, nil
}

// readOne reads one Procfile and parses it, choosing the runner from the
// files beside it.
func readOne(file string) ([]abi.Task, []abi.Warning, error) {
	_, body, err := juju.ReadFile(abi.ReadRequest{Path: file, MaxBytes: 1 << 20})
	if err != nil {
		return nil, nil, err
	}
	var siblings []string
	if list, err := juju.ListDir(abi.ListRequest{Path: path.Dir(file)}); err == nil {
		for _, e := range list.Entries {
			siblings = append(siblings, e.Name)
		}
	}
	tasks, warnings := Parse(file, string(body), Runner(siblings))
	return tasks, warnings, nil
}

func summary(t Tasks) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d tasks\n", len(t.Tasks))
	for _, task := range t.Tasks {
		fmt.Fprintf(&b, "%s:%d  %s  (%s)\n", task.File, task.Line, task.Command, task.Description)
	}
	for _, w := range t.Warnings {
		fmt.Fprintf(&b, "warning: %s: %s\n", w.File, w.Message)
	}
	return b.String()
}

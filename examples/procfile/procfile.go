package main

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
)

// processRE is one Procfile entry: a process type, a colon, its command.
// foreman and honcho accept letters, digits, '-' and '_' in the name.
var processRE = regexp.MustCompile(`^([A-Za-z0-9_-]+):[ \t]*(.*)$`)

// Parse reads the Procfile at file (a path relative to the first root) and
// returns one task per process type. A line that is neither an entry, a
// comment nor blank is a warning; parsing goes on past it. runner is the
// tool that starts the processes ("foreman" or "honcho").
func Parse(file, content, runner string) ([]abi.Task, []abi.Warning) {
	var tasks []abi.Task
	var warnings []abi.Warning
	seen := map[string]int{}
	content = strings.TrimPrefix(content, "\uFEFF")
	for i, line := range strings.Split(content, "\n") {
		line = strings.TrimRight(line, " \t\r")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		m := processRE.FindStringSubmatch(line)
		if m == nil || strings.TrimSpace(m[2]) == "" {
			warnings = append(warnings, abi.Warning{File: file, Message: fmt.Sprintf("line %d is not a \"name: command\" entry", i+1)})
			continue
		}
		name, cmd := m[1], strings.TrimSpace(m[2])
		if prev, ok := seen[name]; ok {
			warnings = append(warnings, abi.Warning{File: file, Message: fmt.Sprintf("line %d: process %q was already defined on line %d; %s uses the last one", i+1, name, prev, runner)})
			tasks = removeTask(tasks, name)
		}
		seen[name] = i + 1
		tasks = append(tasks, abi.Task{
			Name:        name,
			Runner:      runner,
			Command:     startCommand(runner, file, name),
			Cwd:         dir(file),
			File:        file,
			Line:        i + 1,
			Description: cmd,
			Kind:        kind(name),
		})
	}
	return tasks, warnings
}

// startCommand is how the owner starts one process of the Procfile, from
// the Procfile's folder.
func startCommand(runner, file, name string) string {
	f := ""
	if base := path.Base(file); base != "Procfile" {
		f = " -f " + base
	}
	return fmt.Sprintf("%s start%s %s", runner, f, name)
}

func dir(file string) string {
	d := path.Dir(file)
	if d == "" {
		return "."
	}
	return d
}

// kind guesses a task kind from the conventional process names.
func kind(name string) string {
	switch strings.ToLower(name) {
	case "test", "tests", "spec":
		return abi.KindTest
	case "lint":
		return abi.KindLint
	case "release", "build", "assets":
		return abi.KindBuild
	}
	return abi.KindRun
}

func removeTask(tasks []abi.Task, name string) []abi.Task {
	out := tasks[:0]
	for _, t := range tasks {
		if t.Name != name {
			out = append(out, t)
		}
	}
	return out
}

// Runner picks the tool that starts the processes from the files beside
// the Procfile: honcho in a Python project, foreman otherwise.
func Runner(siblings []string) string {
	for _, s := range siblings {
		switch s {
		case "pyproject.toml", "requirements.txt", "setup.py", "Pipfile", ".honcho":
			return "honcho"
		}
	}
	return "foreman"
}

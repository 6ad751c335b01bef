package overview

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// The bounds of one overview: its text and, apart, its structured content
// stay under maxOverview (SPEC §4: each under 100,000 bytes); maxWarnings
// warnings at most are listed, and tasks fill what is left.
const (
	maxOverview = 90_000
	maxWarnings = 50
	headRoom    = 4_000 // the summary lines, languages, git and instruction files
)

// cut keeps the warnings and the tasks from offset that fit one result,
// and says where the tasks go on.
func cut(o *Overview, offset int) {
	if n := len(o.Warnings) - maxWarnings; n > 0 {
		o.Warnings, o.WarningsLeft = o.Warnings[:maxWarnings], n
	}
	text, structured := headRoom, headRoom
	for _, w := range o.Warnings {
		text += len(juju.PathText(w.File)) + len(juju.LineText(w.Message)) + 6
		structured += len(`{"file":"","message":""},`) + abi.JSONLen(w.File) + abi.JSONLen(w.Message)
	}
	o.TasksTotal = len(o.Tasks)
	tasks := o.Tasks[min(offset, len(o.Tasks)):]
	group, n := "", 0
	for _, t := range tasks {
		line := len(taskLine(t))
		if g := taskGroup(t); g != group {
			group, line = g, line+len(g)+4
		}
		size := taskJSONSize(t)
		if text+line > maxOverview || structured+size > maxOverview {
			break
		}
		text += line
		structured += size
		n++
	}
	o.Tasks = tasks[:n]
	if next := offset + n; next < o.TasksTotal {
		o.NextOffset = next
	}
}

// taskGroup is the heading tasks are listed under.
func taskGroup(t abi.Task) string { return juju.LineText(t.Runner) + " in " + juju.PathText(t.Cwd) }

// coreDiscover is juju's own discover plugin; an installed plugin cannot
// take its name.
const coreDiscover = "core-discover"

// taskLine is one task as the text lists it: its fields come from the
// project's files through a discoverer, so each stays on the line
// (juju.LineText, juju.PathText). A task an installed plugin found says
// so, with the plugin and discoverer the host ran: that plugin chose its
// runner, file and command, which need not be what the project defines.
func taskLine(t abi.Task) string {
	var b strings.Builder
	fmt.Fprintf(&b, "    %s", juju.LineText(t.Command))
	if t.Description != "" {
		fmt.Fprintf(&b, " — %s", juju.LineText(t.Description))
	}
	fmt.Fprintf(&b, " [%s, %s:%d", juju.LineText(t.Kind), juju.PathText(t.File), t.Line)
	if t.Plugin != coreDiscover {
		fmt.Fprintf(&b, "; found by installed plugin %s (discoverer %s), not by juju: check the file before running it", juju.LineText(t.Plugin), juju.LineText(t.Discoverer))
	}
	b.WriteString("]\n")
	return b.String()
}

// taskJSONSize is at least the size of t in the structured content: each
// byte of a string counted as the six of \u00XX when JSON may escape it.
func taskJSONSize(t abi.Task) int {
	return len(`{"name":"","runner":"","command":"","cwd":"","file":"","line":,"description":"","kind":"","plugin":"","discoverer":""},`) + 20 +
		abi.JSONLen(t.Name) + abi.JSONLen(t.Runner) + abi.JSONLen(t.Command) + abi.JSONLen(t.Cwd) + abi.JSONLen(t.File) + abi.JSONLen(t.Description) + abi.JSONLen(t.Kind) +
		abi.JSONLen(t.Plugin) + abi.JSONLen(t.Discoverer)
}

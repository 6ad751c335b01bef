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
		structured += len(`{"file":"","message":""},`) + jsonLen(w.File) + jsonLen(w.Message)
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

// taskLine is one task as the text lists it: its fields come from the
// project's files through a discoverer, so each stays on the line
// (juju.LineText, juju.PathText).
func taskLine(t abi.Task) string {
	var b strings.Builder
	fmt.Fprintf(&b, "    %s", juju.LineText(t.Command))
	if t.Description != "" {
		fmt.Fprintf(&b, " — %s", juju.LineText(t.Description))
	}
	fmt.Fprintf(&b, " [%s, %s:%d]\n", juju.LineText(t.Kind), juju.PathText(t.File), t.Line)
	return b.String()
}

// taskJSONSize is at least the size of t in the structured content: each
// byte of a string counted as the six of \u00XX when JSON may escape it.
func taskJSONSize(t abi.Task) int {
	return len(`{"name":"","runner":"","command":"","cwd":"","file":"","line":,"description":"","kind":""},`) + 20 +
		jsonLen(t.Name) + jsonLen(t.Runner) + jsonLen(t.Command) + jsonLen(t.Cwd) + jsonLen(t.File) + jsonLen(t.Description) + jsonLen(t.Kind)
}

func jsonLen(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			n += 6
		} else {
			n++
		}
	}
	return n
}

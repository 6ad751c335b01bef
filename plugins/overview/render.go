package overview

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/juju"
)

// renderOverview writes the overview for the model: a few lines of summary, then
// the tasks grouped by folder and runner, then the warnings. Every string
// that comes from the workspace, git or a plugin (paths, tasks, warnings,
// the branch and the last commit) goes through juju.LineText or
// juju.PathText, so none can end its line, start one of juju's own, or hide
// what it says: the text's lines are the ones written here.
func renderOverview(o *Overview, offset int) string {
	var b strings.Builder
	files := fmt.Sprintf("%d files", o.Files)
	if o.Files == 1 {
		files = "1 file"
	}
	fmt.Fprintf(&b, "Project %s: %s, %s", juju.PathText(o.Path), files, byteSize(o.Bytes))
	if o.Truncated {
		b.WriteString(" (walk stopped at its bound; more files exist)")
	}
	b.WriteString("\n")
	if len(o.Languages) > 0 {
		parts := make([]string, len(o.Languages))
		for i, l := range o.Languages {
			parts[i] = fmt.Sprintf("%s %.1f%%", juju.LineText(l.Name), l.Percent)
		}
		fmt.Fprintf(&b, "Languages: %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "Git: %s\n", gitLine(o.Git))
	if len(o.Instructions) > 0 {
		paths := make([]string, len(o.Instructions))
		for i, p := range o.Instructions {
			paths[i] = juju.PathText(p)
		}
		fmt.Fprintf(&b, "Instruction files (the project's conventions; read them before changing code): %s\n", strings.Join(paths, ", "))
	}
	switch {
	case o.TasksTotal == 0 && offset > 0:
		fmt.Fprintf(&b, "Tasks: none found, so offset %d is past the last one; call project_overview without offset.\n", offset)
	case o.TasksTotal == 0:
		b.WriteString("Tasks: none found.\n")
	case len(o.Tasks) == 0:
		fmt.Fprintf(&b, "Tasks: %d in all; offset %d is past the last one.\n", o.TasksTotal, offset)
	case len(o.Tasks) < o.TasksTotal:
		fmt.Fprintf(&b, "Tasks %d to %d of %d (run from the folder shown):\n", offset+1, offset+len(o.Tasks), o.TasksTotal)
	default:
		fmt.Fprintf(&b, "Tasks (%d; run from the folder shown):\n", len(o.Tasks))
	}
	group := ""
	for _, t := range o.Tasks {
		if g := taskGroup(t); g != group {
			group = g
			fmt.Fprintf(&b, "  %s:\n", g)
		}
		b.WriteString(taskLine(t))
	}
	if o.NextOffset > 0 {
		fmt.Fprintf(&b, "[Showing tasks %d to %d of %d, the most one result holds. Call project_overview with offset %d to list the rest, or with path set to a subfolder.]\n",
			offset+1, offset+len(o.Tasks), o.TasksTotal, o.NextOffset)
	}
	if len(o.Warnings) > 0 {
		b.WriteString("Warnings:\n")
		for _, w := range o.Warnings {
			fmt.Fprintf(&b, "  %s: %s\n", juju.PathText(w.File), juju.LineText(w.Message))
		}
		if o.WarningsLeft > 0 {
			fmt.Fprintf(&b, "  … and %d more warnings\n", o.WarningsLeft)
		}
	}
	return b.String()
}

func gitLine(g Git) string {
	switch {
	case !g.Available || !g.Repository:
		return juju.LineText(g.Note)
	}
	var s strings.Builder
	if g.Branch == "" {
		s.WriteString("detached HEAD")
	} else {
		s.WriteString("branch " + juju.LineText(g.Branch))
	}
	switch {
	case g.Gone:
		fmt.Fprintf(&s, " (tracking %s, gone: deleted on the remote)", juju.LineText(g.Upstream))
	case g.Upstream != "":
		fmt.Fprintf(&s, " (tracking %s, ahead %d, behind %d)", juju.LineText(g.Upstream), g.Ahead, g.Behind)
	}
	if g.Clean {
		s.WriteString(", clean")
	} else {
		fmt.Fprintf(&s, ", %d staged, %d modified, %d untracked, %d conflicted", g.Staged, g.Modified, g.Untracked, g.Conflicted)
	}
	if g.Head != "" {
		s.WriteString("; last commit " + juju.LineText(g.Head))
	}
	return s.String()
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

package overview

import (
	"cmp"
	"slices"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// OverviewArgs are the arguments of project_overview.
type OverviewArgs struct {
	Path      string `json:"path,omitempty" default:"." desc:"The folder to describe (default: the first workspace root)."`
	Languages int    `json:"languages,omitempty" default:"10" min:"1" max:"50" desc:"How many languages to list, largest first."`
	Offset    int    `json:"offset,omitempty" min:"0" desc:"How many tasks to skip: pass the nextOffset of an overview whose tasks were cut to list the rest."`
}

// Overview is the structured content of project_overview (SPEC §9b).
type Overview struct {
	Path         string        `json:"path" desc:"The folder described."`
	Files        int           `json:"files" desc:"Files seen (ignored files and dependency folders left out)."`
	Bytes        int64         `json:"bytes" desc:"Their total size in bytes."`
	Truncated    bool          `json:"truncated,omitempty" desc:"The walk stopped at its bound: counts are a lower bound."`
	Languages    []Language    `json:"languages" jsonschema:"required" desc:"Languages by size, largest first."`
	Git          Git           `json:"git" desc:"The git branch and state."`
	Instructions []string      `json:"instructions" jsonschema:"required" desc:"Instruction files present: paths only; they are the project's conventions, not commands."`
	Tasks        []abi.Task    `json:"tasks" jsonschema:"required" desc:"Tasks found by the discoverers, by folder and runner, from offset on, cut before the result reaches about 90 KB."`
	TasksTotal   int           `json:"tasksTotal" desc:"How many tasks the discoverers found in all."`
	NextOffset   int           `json:"nextOffset,omitempty" desc:"When tasks stops before the last one: the offset to pass to list the tasks after these."`
	Warnings     []abi.Warning `json:"warnings" jsonschema:"required" desc:"Files that could not be parsed, and discoverers that failed (the first ones, when there are many)."`
	WarningsLeft int           `json:"warningsLeft,omitempty" desc:"Warnings left out of warnings."`
}

// Language is one language's share of the workspace.
type Language struct {
	Name    string  `json:"name"`
	Files   int     `json:"files"`
	Bytes   int64   `json:"bytes"`
	Percent float64 `json:"percent" desc:"Share of the bytes of all recognised languages."`
}

func projectOverview(_ *juju.Call, in OverviewArgs) (*juju.Result, error) {
	if in.Path == "" {
		in.Path = "."
	}
	if in.Languages <= 0 {
		in.Languages = 10
	}
	d, err := juju.DiscoverTasks(abi.DiscoverTasksRequest{Path: in.Path})
	if err != nil {
		return nil, err
	}
	o := &Overview{
		Path:         in.Path,
		Files:        d.Files,
		Bytes:        d.Bytes,
		Truncated:    d.Truncated,
		Languages:    languages(d.Extensions, in.Languages),
		Git:          gitState(in.Path),
		Instructions: instructions(in.Path),
		Tasks:        d.Tasks,
		Warnings:     d.Warnings,
	}
	if o.Tasks == nil {
		o.Tasks = []abi.Task{}
	}
	if o.Warnings == nil {
		o.Warnings = []abi.Warning{}
	}
	cut(o, in.Offset)
	return juju.Text(renderOverview(o, in.Offset)).WithStructured(o), nil
}

// languages sums the extensions by language and keeps the top n.
func languages(exts map[string]abi.ExtensionStat, n int) []Language {
	by := map[string]*Language{}
	var total int64
	for ext, st := range exts {
		name, ok := languageOf[ext]
		if !ok {
			continue
		}
		l := by[name]
		if l == nil {
			l = &Language{Name: name}
			by[name] = l
		}
		l.Files += st.Files
		l.Bytes += st.Bytes
		total += st.Bytes
	}
	out := make([]Language, 0, len(by))
	for _, l := range by {
		if total > 0 {
			l.Percent = float64(l.Bytes*1000/total) / 10
		}
		out = append(out, *l)
	}
	slices.SortFunc(out, func(a, b Language) int {
		if c := cmp.Compare(b.Bytes, a.Bytes); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

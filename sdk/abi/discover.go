package abi

// ExportDiscover runs one task discoverer of a plugin. Input: a
// DiscoverRequest (JSON). Output: a DiscoverResult (JSON). Discoverers read
// project files through the fs host functions only; they never run project
// code to list tasks.
const ExportDiscover = "juju_discover"

// Task kinds.
const (
	KindBuild = "build"
	KindTest  = "test"
	KindLint  = "lint"
	KindRun   = "run"
	KindOther = "other"
)

// DiscoverRequest asks discoverer Discoverer about Files: the display paths
// (relative to the first root) of the files that matched its globs, sorted,
// the first 1,000 of them at most (a warning says how many more there were).
type DiscoverRequest struct {
	Discoverer string   `json:"discoverer"`
	Files      []string `json:"files"`
}

// DiscoverResult is what one discoverer found. A file it could not parse is
// a Warning; it never fails the whole result.
type DiscoverResult struct {
	Tasks    []Task    `json:"tasks"`
	Warnings []Warning `json:"warnings,omitempty"`
	Error    *Error    `json:"error,omitempty"`
}

// Task is one runnable task (SPEC §9b). Cwd and File are relative to the
// first root; Line is 1-based (0 when unknown); Kind is one of the Kind
// constants. Plugin and Discoverer name who found it: the host sets them
// from the discoverer it ran, over whatever the discoverer returned, so a
// task of an installed plugin can never pass for one of juju's own
// (plugin core-discover).
type Task struct {
	Name        string `json:"name"`
	Runner      string `json:"runner"`
	Command     string `json:"command"`
	Cwd         string `json:"cwd"`
	File        string `json:"file"`
	Line        int    `json:"line,omitempty"`
	Description string `json:"description,omitempty"`
	Kind        string `json:"kind"`
	Plugin      string `json:"plugin,omitempty" desc:"The plugin whose discoverer found the task: core-discover is juju's own; any other is an installed plugin, which says what the task runs, not the project."`
	Discoverer  string `json:"discoverer,omitempty" desc:"The discoverer of that plugin that found the task."`
}

// Warning names a file a discoverer could not read or parse.
type Warning struct {
	File    string `json:"file"`
	Message string `json:"message"`
}

// FnDiscoverTasks runs every task discoverer juju has loaded (core and
// installed plugins) over the workspace: one walk finds the files their
// globs match, each discoverer is called with its files under a time cap,
// and their tasks and warnings are merged. The walk also sums the files it
// saw by extension, so a caller needs no second walk for sizes. Capability
// fs.read.
const FnDiscoverTasks = "juju_discover_tasks" // DiscoverTasksRequest → DiscoverTasksResult

// DiscoverTasksRequest asks for the tasks under Path (a folder; default
// the first root).
type DiscoverTasksRequest struct {
	Path string `json:"path,omitempty"`
}

// DiscoverTasksResult is every discoverer's tasks and warnings, sorted by
// cwd, runner and file, and what the walk saw. A discoverer that failed,
// trapped or ran out of time is a Warning naming it; the others' tasks are
// still there.
type DiscoverTasksResult struct {
	Status
	Tasks    []Task    `json:"tasks"`
	Warnings []Warning `json:"warnings,omitempty"`
	// Files and Bytes count the regular files the walk saw (ignored and
	// hidden files, and dependency folders, left out).
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
	// Extensions sums Files and Bytes by lower-case extension (".go"), or
	// by name for files without one that tools know by name ("Makefile").
	Extensions map[string]ExtensionStat `json:"extensions,omitempty"`
	// Truncated says the walk stopped at its file or depth bound: the
	// counts are a lower bound and deep files were not offered.
	Truncated bool `json:"truncated,omitempty"`
}

// ExtensionStat counts the files of one extension.
type ExtensionStat struct {
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
}

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
// (relative to the first root) of the files that matched its globs.
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
// constants.
type Task struct {
	Name        string `json:"name"`
	Runner      string `json:"runner"`
	Command     string `json:"command"`
	Cwd         string `json:"cwd"`
	File        string `json:"file"`
	Line        int    `json:"line,omitempty"`
	Description string `json:"description,omitempty"`
	Kind        string `json:"kind"`
}

// Warning names a file a discoverer could not read or parse.
type Warning struct {
	File    string `json:"file"`
	Message string `json:"message"`
}

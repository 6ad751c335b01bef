package abi

import "encoding/json"

// Tiers of tools (SPEC §4): the policy gate decides by tier and trust mode.
const (
	TierRead = "R" // reads the workspace
	TierEdit = "E" // changes files
	TierExec = "X" // runs commands or reaches the network
)

// ToolSpec describes one tool. Manifests hold these; plugins built with the
// SDK generate them from Go types through ExportDescribe.
type ToolSpec struct {
	Name         string          `json:"name"` // ^[a-z0-9_]{1,64}$
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description"`
	Tier         string          `json:"tier"` // TierRead, TierEdit, TierExec
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  Annotations     `json:"annotations"`
}

// Annotations are the MCP tool hints.
type Annotations struct {
	ReadOnly    bool `json:"readOnlyHint"`
	Destructive bool `json:"destructiveHint"`
	Idempotent  bool `json:"idempotentHint"`
	OpenWorld   bool `json:"openWorldHint"`
}

// DiscovererSpec describes a task discoverer: its name and the file globs
// that wake it.
type DiscovererSpec struct {
	Name  string   `json:"name"`
	Files []string `json:"files"`
}

// The bounds of a plugin's discoverers. The host matches every file of
// the workspace against every glob of every discoverer, in host code, on
// each project_overview: a plugin has at most MaxDiscoverers, each at most
// MaxDiscovererGlobs globs of at most MaxDiscovererGlob bytes, and the
// globs of all its discoverers expand to at most MaxGlobForms forms in all
// (see GlobForms; a plain name is one). core-discover has 12 discoverers,
// at most 7 globs each and 39 in all.
const (
	MaxDiscoverers     = 64
	MaxDiscovererGlobs = 32
	MaxDiscovererGlob  = 256
)

// Description is the output of ExportDescribe.
type Description struct {
	Tools       []ToolSpec       `json:"tools"`
	Discoverers []DiscovererSpec `json:"discoverers,omitempty"`
	// Plugins holds, by plugin name, the tools of the other plugins the
	// module also serves (juju's core module serves core-exec too; see
	// docs/ABI.md, "One module, several plugins"). Tools lists the
	// module's own plugin's alone.
	Plugins map[string][]ToolSpec `json:"plugins,omitempty"`
}

package abi

// The language-server host function (capability lsp): juju starts the
// language servers the owner registered (`juju lsp add`), one per
// registration and workspace root, lazily, and asks them on the plugin's
// behalf. Positions on the wire are 1-based lines and 1-based columns
// counted in Unicode code points, in requests and results alike; the host
// converts them to and from the server's UTF-16 offsets.
const FnLSP = "juju_lsp" // LSPRequest → LSPResult; lsp

// LSP operations (LSPRequest.Op).
const (
	LSPDefinition       = "definition"       // Path, Line, Column → Locations
	LSPReferences       = "references"       // Path, Line, Column (IncludeDeclaration) → Locations
	LSPDocumentSymbols  = "documentSymbols"  // Path → Symbols (a tree)
	LSPWorkspaceSymbols = "workspaceSymbols" // Query (Path: a file or folder whose language picks the servers) → Symbols (flat)
	LSPDiagnostics      = "diagnostics"      // Path (empty: every open file) → Diagnostics
	LSPServers          = "servers"          // → Servers: what is registered and running
)

// LSPRequest asks one question of the language server of Path's language.
type LSPRequest struct {
	Op   string `json:"op"`
	Path string `json:"path,omitempty"` // relative to the first root, or absolute inside a root
	// Line and Column are 1-based; Column counts Unicode code points. A
	// column past the end of the line means its end.
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Query  string `json:"query,omitempty"` // workspaceSymbols
	// IncludeDeclaration counts the declaration among the references.
	IncludeDeclaration bool `json:"includeDeclaration,omitempty"`
	// MaxResults caps the locations, symbols or diagnostics returned; 0:
	// the host's cap. Truncated says when more existed.
	MaxResults int `json:"maxResults,omitempty"`
}

// LSPResult is a language server's answer, converted to juju's positions.
// Unregistered says no server is registered for the language asked about
// (Language names it; "" when the file has no known language): the plugin
// answers by itself, or says how to register one.
type LSPResult struct {
	Status
	Unregistered bool   `json:"unregistered,omitempty"`
	Language     string `json:"language,omitempty"`
	// Root is, on an Unregistered answer for a file, the workspace root
	// holding it as paths are shown: empty for the first root, its
	// absolute path for another, so that the heuristic index looks for a
	// name in the file's own root.
	Root   string `json:"root,omitempty"`
	Server string `json:"server,omitempty"` // the registration that answered
	// Locations of definition and references; Symbols of documentSymbols
	// (a tree) and workspaceSymbols (flat); Diagnostics of diagnostics.
	Locations   []LSPLocation   `json:"locations,omitempty"`
	Symbols     []LSPSymbol     `json:"symbols,omitempty"`
	Diagnostics []LSPDiagnostic `json:"diagnostics,omitempty"`
	// Pulled says the diagnostics were asked for (textDocument/diagnostic);
	// otherwise they are the last the server pushed for each file.
	Pulled bool `json:"pulled,omitempty"`
	// Unsettled names, by display path, the files for which the server
	// had pushed no diagnostics of their current text when the wait ran
	// out: it sent none at all for them (Silent) or only older ones, which
	// Diagnostics holds. Such a server may still be analysing.
	Unsettled []LSPUnsettled `json:"unsettled,omitempty"`
	// Truncated says MaxResults cut the answer. Results in secret or
	// denied files are left out without a word: they take no room, and
	// nothing says they were there.
	Truncated bool `json:"truncated,omitempty"`
	// Hidden counted, from hosts before, the results left out because they
	// lay in secret or denied files. juju no longer sets it: a language
	// server indexes those files too, so the count told a query's author
	// what they hold.
	Hidden int `json:"hidden,omitempty"`
	// Skipped says, one sentence each, which servers of a request asking
	// several (workspace symbols over a folder) failed and were left out,
	// while the others answered.
	Skipped []string        `json:"skipped,omitempty"`
	Servers []LSPServerInfo `json:"servers,omitempty"`
}

// LSPUnsettled is a file whose diagnostics were not current in time.
type LSPUnsettled struct {
	Path   string `json:"path"`
	Silent bool   `json:"silent,omitempty"` // the server pushed none for it at all
}

// LSPLocation is a place in a file. Inside the roots Path is the display
// path and Text the line's text (cut at 1,000 bytes); a place outside every
// root (the standard library, a module cache) has Outside set, Path
// absolute, no Text and no columns: juju names it but never reads it.
type LSPLocation struct {
	Path      string `json:"path"`
	Outside   bool   `json:"outside,omitempty"`
	Line      int    `json:"line"`
	Column    int    `json:"column,omitempty"`
	EndLine   int    `json:"endLine,omitempty"`
	EndColumn int    `json:"endColumn,omitempty"`
	Text      string `json:"text,omitempty"`
}

// LSPSymbol is one symbol: a tree for documentSymbols (Children), flat with
// Container for workspaceSymbols. Kind is the LSP symbol kind in lower
// case ("function", "method", "struct" …).
type LSPSymbol struct {
	Name      string      `json:"name"`
	Kind      string      `json:"kind"`
	Detail    string      `json:"detail,omitempty"`
	Container string      `json:"container,omitempty"`
	Path      string      `json:"path"`
	Outside   bool        `json:"outside,omitempty"`
	Line      int         `json:"line"`
	Column    int         `json:"column,omitempty"`
	EndLine   int         `json:"endLine,omitempty"`
	EndColumn int         `json:"endColumn,omitempty"`
	Children  []LSPSymbol `json:"children,omitempty"`
}

// LSPDiagnostic is one diagnostic. Severity is "error", "warning",
// "information" or "hint".
type LSPDiagnostic struct {
	Path      string `json:"path"`
	Severity  string `json:"severity"`
	Code      string `json:"code,omitempty"`
	Source    string `json:"source,omitempty"`
	Message   string `json:"message"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
}

// LSPServerInfo describes one registration and its running servers.
type LSPServerInfo struct {
	Name      string   `json:"name"`
	Languages []string `json:"languages"`
	Running   []string `json:"running,omitempty"` // the roots (display paths) of its running servers
}

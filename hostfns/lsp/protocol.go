package lsp

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
)

// The parts of the Language Server Protocol juju speaks, as the wire has
// them. Positions here are the server's: 0-based lines and character
// offsets in the negotiated encoding (UTF-16 unless the server chose
// another juju offered).

type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

type location struct {
	URI   string   `json:"uri"`
	Range lspRange `json:"range"`
}

// locationLink is what a server that was told linkSupport may answer a
// definition with.
type locationLink struct {
	TargetURI            string    `json:"targetUri"`
	TargetRange          lspRange  `json:"targetRange"`
	TargetSelectionRange *lspRange `json:"targetSelectionRange"`
}

type textDocumentID struct {
	URI string `json:"uri"`
}

type textDocumentPosition struct {
	TextDocument textDocumentID `json:"textDocument"`
	Position     position       `json:"position"`
}

type referenceParams struct {
	textDocumentPosition
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
}

// documentSymbol is the hierarchical answer of textDocument/documentSymbol.
type documentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail"`
	Kind           int              `json:"kind"`
	Range          lspRange         `json:"range"`
	SelectionRange lspRange         `json:"selectionRange"`
	Children       []documentSymbol `json:"children"`
}

// symbolInformation is the flat answer of documentSymbol (older servers)
// and workspace/symbol. Location may lack a range (WorkspaceSymbol).
type symbolInformation struct {
	Name          string   `json:"name"`
	Kind          int      `json:"kind"`
	ContainerName string   `json:"containerName"`
	Location      location `json:"location"`
}

type diagnostic struct {
	Range    lspRange        `json:"range"`
	Severity int             `json:"severity"`
	Code     json.RawMessage `json:"code"` // a number or a string
	Source   string          `json:"source"`
	Message  string          `json:"message"`
}

type publishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

// documentDiagnosticReport is the answer of textDocument/diagnostic:
// "full" with items, or "unchanged" since resultId.
type documentDiagnosticReport struct {
	Kind     string       `json:"kind"`
	ResultID string       `json:"resultId"`
	Items    []diagnostic `json:"items"`
}

type progressParams struct {
	Token json.RawMessage `json:"token"`
	Value struct {
		Kind    string `json:"kind"` // begin, report, end
		Title   string `json:"title"`
		Message string `json:"message"`
	} `json:"value"`
}

type logMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

type registration struct {
	ID     string `json:"id"`
	Method string `json:"method"`
}

type registrationParams struct {
	Registrations []registration `json:"registrations"`
}

type unregistrationParams struct {
	// The protocol spells it so.
	Unregisterations []registration `json:"unregisterations"`
}

type configurationParams struct {
	Items []json.RawMessage `json:"items"`
}

type fileEvent struct {
	URI  string `json:"uri"`
	Type int    `json:"type"` // 1 created, 2 changed, 3 deleted
}

// initializeResult holds what juju reads of the server's capabilities.
type initializeResult struct {
	Capabilities struct {
		PositionEncoding        string          `json:"positionEncoding"`
		DefinitionProvider      json.RawMessage `json:"definitionProvider"`
		ReferencesProvider      json.RawMessage `json:"referencesProvider"`
		DocumentSymbolProvider  json.RawMessage `json:"documentSymbolProvider"`
		WorkspaceSymbolProvider json.RawMessage `json:"workspaceSymbolProvider"`
		DiagnosticProvider      json.RawMessage `json:"diagnosticProvider"`
		TextDocumentSync        json.RawMessage `json:"textDocumentSync"`
	} `json:"capabilities"`
	ServerInfo struct {
		Name string `json:"name"`
	} `json:"serverInfo"`
}

// provided reports whether a capability value says yes: true or an
// options object.
func provided(v json.RawMessage) bool {
	s := strings.TrimSpace(string(v))
	return s != "" && s != "null" && s != "false"
}

// symbolKinds names the LSP SymbolKind values, 1-based.
var symbolKinds = []string{"", "file", "module", "namespace", "package", "class", "method", "property",
	"field", "constructor", "enum", "interface", "function", "variable", "constant", "string", "number",
	"boolean", "array", "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"}

func kindName(k int) string {
	if k > 0 && k < len(symbolKinds) {
		return symbolKinds[k]
	}
	return "symbol"
}

var severities = []string{"error", "error", "warning", "information", "hint"}

func severityName(s int) string {
	if s >= 1 && s <= 4 {
		return severities[s]
	}
	return "error" // the protocol: when missing, the client decides
}

// codeText renders a diagnostic code, a number or a string.
func codeText(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return ""
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return str
	}
	return s
}

// fileURI is the file: URI of an absolute OS path.
func fileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// uriPath is the absolute OS path a file: URI names; false for other
// schemes and malformed URIs.
func uriPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" || (u.Host != "" && u.Host != "localhost") {
		return "", false
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), true
}

package semantic

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// Where an answer comes from.
const (
	sourceLSP       = "lsp"
	sourceHeuristic = "heuristic"
)

// Size caps of one answer: the text, and the structured content, each stay
// well under the 100,000 bytes clients accept.
const (
	maxText       = 60 << 10
	maxStructured = 80 << 10
)

// Location is a place in a file.
type Location struct {
	Path      string `json:"path" desc:"The file, relative to the first root (absolute when outside every root)."`
	Line      int    `json:"line" desc:"1-based line."`
	Column    int    `json:"column,omitempty" desc:"1-based column, in Unicode code points (absent outside the roots)."`
	EndLine   int    `json:"endLine,omitempty" desc:"1-based line where the range ends."`
	EndColumn int    `json:"endColumn,omitempty" desc:"1-based column just past the range's end, in code points."`
	Text      string `json:"text,omitempty" desc:"The line's text."`
	Outside   bool   `json:"outside,omitempty" desc:"The place lies outside the workspace roots (standard library, module cache): named, never read."`
}

// Symbol is a symbol found in a file.
type Symbol struct {
	Name      string `json:"name" desc:"The symbol's name."`
	NamePath  string `json:"namePath,omitempty" desc:"Its name path (Container.Name), to pass as symbol."`
	Kind      string `json:"kind" desc:"function, method, class, struct, interface, variable, constant, field …"`
	Detail    string `json:"detail,omitempty" desc:"Signature or type, when the server gives one."`
	Container string `json:"container,omitempty" desc:"What it is declared in (type, class, package)."`
	Path      string `json:"path" desc:"The file, relative to the first root."`
	Line      int    `json:"line" desc:"1-based line of its name."`
	Column    int    `json:"column,omitempty" desc:"1-based column of its name, in code points."`
	EndLine   int    `json:"endLine,omitempty" desc:"1-based line where its declaration ends."`
	EndColumn int    `json:"endColumn,omitempty" desc:"1-based column just past the declaration's end."`
	Text      string `json:"text,omitempty" desc:"The line's text."`
	Outside   bool   `json:"outside,omitempty" desc:"Outside the workspace roots: named, never read."`
}

func locationOf(l abi.LSPLocation) Location {
	return Location{Path: l.Path, Line: l.Line, Column: l.Column, EndLine: l.EndLine, EndColumn: l.EndColumn, Text: l.Text, Outside: l.Outside}
}

func symbolOf(s abi.LSPSymbol, text string) Symbol {
	name, container := s.Name, s.Container
	np := name
	if container != "" && !strings.Contains(name, ".") {
		np = lastSegment(container) + "." + name
	}
	return Symbol{Name: name, NamePath: np, Kind: s.Kind, Detail: s.Detail, Container: container, Path: s.Path,
		Line: s.Line, Column: s.Column, EndLine: s.EndLine, EndColumn: s.EndColumn, Text: text, Outside: s.Outside}
}

// lastSegment is the last part of a container: a package path's last
// element, a dotted name's last name.
func lastSegment(c string) string {
	if i := strings.LastIndexAny(c, "/"); i >= 0 {
		c = c[i+1:]
	}
	return c
}

// position formats path:line:column, the path as a line shows it
// (juju.PathText).
func position(path string, line, column int) string {
	b := make([]byte, 0, len(path)+24)
	b = strconv.AppendInt(append(juju.AppendPathText(b, path), ':'), int64(line), 10)
	if column > 0 {
		b = strconv.AppendInt(append(b, ':'), int64(column), 10)
	}
	return string(b)
}

// locationLine is one location as a line of text.
func locationLine(l Location) string {
	s := position(l.Path, l.Line, l.Column)
	switch {
	case l.Outside:
		s += "  (outside the workspace: not read)"
	case l.Text != "":
		s += ": " + strings.TrimSpace(l.Text)
	}
	return s
}

// registerHint tells how to register a server for language.
func registerHint(language string) string {
	if language == "" {
		return "No registered language server serves these files (or their language is not one juju knows); the owner can register one with `juju lsp add` (see `juju lsp add --help`)."
	}
	line, ok := suggested[language]
	if !ok {
		line = fmt.Sprintf("juju lsp add NAME --command \"SERVER --stdio\" --languages %s", language)
	}
	return fmt.Sprintf("No language server is registered for %s. The owner can register one on the terminal: %s", language, line)
}

// suggested are the one-line registrations of well-known servers (the same
// lines as docs/CLI.md).
var suggested = map[string]string{
	"go":         `juju lsp add gopls --command gopls --languages go --root-markers go.work,go.mod --init-options '{"verboseWorkDoneProgress":true}'`,
	"python":     `juju lsp add pyright --command "pyright-langserver --stdio" --languages python --root-markers pyrightconfig.json,pyproject.toml,setup.py`,
	"typescript": `juju lsp add tsserver --command "typescript-language-server --stdio" --languages typescript,javascript --root-markers tsconfig.json,jsconfig.json,package.json`,
	"javascript": `juju lsp add tsserver --command "typescript-language-server --stdio" --languages typescript,javascript --root-markers tsconfig.json,jsconfig.json,package.json`,
	"rust":       `juju lsp add rust-analyzer --command rust-analyzer --languages rust --root-markers Cargo.toml`,
	"c":          `juju lsp add clangd --command clangd --languages c,cpp --root-markers compile_commands.json,.clangd`,
	"cpp":        `juju lsp add clangd --command clangd --languages c,cpp --root-markers compile_commands.json,.clangd`,
}

// textBuilder collects lines up to maxText bytes.
type textBuilder struct {
	strings.Builder
	cut     bool
	scratch []byte // a line being written (writeTree)
}

// add appends s as a line unless that would pass maxText; it reports
// whether it did.
func (b *textBuilder) add(s string) bool {
	if b.Len()+len(s) > maxText {
		b.cut = true
		return false
	}
	b.WriteString(s)
	b.WriteByte('\n')
	return true
}

// addBytes is add for a line held in bytes.
func (b *textBuilder) addBytes(s []byte) bool {
	if b.Len()+len(s) > maxText {
		b.cut = true
		return false
	}
	b.Write(s)
	b.WriteByte('\n')
	return true
}

// lspCall asks the host; an error from it is the tool's error.
func lspCall(req abi.LSPRequest) (*abi.LSPResult, error) {
	return juju.LSP(req)
}

// splitNamePath splits a name path ("Server.Run", "pkg.Server.Run") into
// its containers and its last name.
func splitNamePath(s string) (containers []string, name string) {
	s = strings.Trim(strings.TrimSpace(s), ".")
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '/' || r == ':' || r == '#' })
	if len(parts) == 0 {
		return nil, ""
	}
	return parts[:len(parts)-1], parts[len(parts)-1]
}

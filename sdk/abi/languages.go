package abi

import (
	"path"
	"strings"
)

// Language is a programming language juju knows by its file names: the
// names `juju lsp add --languages` accepts, and what the semantic tools'
// heuristic index reads. ID is the LSP language identifier of its files
// (textDocument/didOpen); IDs gives another for some extensions.
type Language struct {
	Name       string
	Extensions []string          // with the dot, lower case
	ID         string            // LSP languageId
	IDs        map[string]string // extension → languageId, where it differs from ID
}

// Languages is the table of known languages, one entry each.
var Languages = []Language{
	{Name: "go", Extensions: []string{".go"}, ID: "go"},
	{Name: "python", Extensions: []string{".py", ".pyi"}, ID: "python"},
	{Name: "typescript", Extensions: []string{".ts", ".tsx", ".mts", ".cts"}, ID: "typescript",
		IDs: map[string]string{".tsx": "typescriptreact"}},
	{Name: "javascript", Extensions: []string{".js", ".jsx", ".mjs", ".cjs"}, ID: "javascript",
		IDs: map[string]string{".jsx": "javascriptreact"}},
	{Name: "rust", Extensions: []string{".rs"}, ID: "rust"},
	{Name: "c", Extensions: []string{".c", ".h"}, ID: "c"},
	{Name: "cpp", Extensions: []string{".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx"}, ID: "cpp"},
	{Name: "java", Extensions: []string{".java"}, ID: "java"},
	{Name: "ruby", Extensions: []string{".rb"}, ID: "ruby"},
	{Name: "php", Extensions: []string{".php"}, ID: "php"},
	{Name: "csharp", Extensions: []string{".cs"}, ID: "csharp"},
	{Name: "kotlin", Extensions: []string{".kt", ".kts"}, ID: "kotlin"},
	{Name: "swift", Extensions: []string{".swift"}, ID: "swift"},
	{Name: "zig", Extensions: []string{".zig"}, ID: "zig"},
	{Name: "lua", Extensions: []string{".lua"}, ID: "lua"},
}

// LanguageNamed returns the language called name, if juju knows it.
func LanguageNamed(name string) (Language, bool) {
	for _, l := range Languages {
		if l.Name == name {
			return l, true
		}
	}
	return Language{}, false
}

// LanguageOf returns the language of a file by its name's extension
// (slash or OS path), if juju knows it.
func LanguageOf(file string) (Language, bool) {
	ext := strings.ToLower(path.Ext(strings.ReplaceAll(file, "\\", "/")))
	if ext == "" {
		return Language{}, false
	}
	for _, l := range Languages {
		for _, e := range l.Extensions {
			if e == ext {
				return l, true
			}
		}
	}
	return Language{}, false
}

// LanguageID is the LSP languageId of file, a file of language l.
func (l Language) LanguageID(file string) string {
	if id, ok := l.IDs[strings.ToLower(path.Ext(file))]; ok {
		return id
	}
	return l.ID
}

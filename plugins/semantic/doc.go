// Package semantic holds juju's five semantic tools: go_to_definition,
// find_references, find_symbol, document_symbols and get_diagnostics. They
// are tier R and need lsp and fs.read.
//
// When the owner registered a language server for a file's language
// (`juju lsp add`), the tools ask it through the juju_lsp host function:
// the host starts the server, keeps it current with juju's own writes,
// converts positions (1-based lines, 1-based code-point columns, in
// arguments and results alike) and filters what comes back through the path
// policy. Without one, find_symbol, document_symbols and go_to_definition
// answer from a heuristic symbol index — definitions found by per-language
// patterns over the files the policy lets juju read, searched with the
// juju_search host function — and say so ("source": "heuristic");
// find_references falls back to whole-word matches, said too;
// get_diagnostics says that no server is registered and how to add one.
//
// The package is a library linked into juju's core plugin (plugins/core).
package semantic

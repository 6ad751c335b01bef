// Package lspconfig holds the owner's language-server registrations: what
// `juju lsp add|list|remove` edit and what the host's LSP manager starts.
//
// They live in lsp.toml in the owner's config directory, never in a
// workspace: a language server is a program juju runs unconfined, so only
// the owner names one. The file is decoded strictly (an unknown key is an
// error) and written atomically with mode 0600.
//
//	[[server]]
//	name = "gopls"
//	command = ["gopls"]
//	languages = ["go"]
//	rootMarkers = ["go.work", "go.mod"]
//	initOptions = '{"verboseWorkDoneProgress": true}'
package lspconfig

// Package host is juju's trusted core: it loads the plugin catalog (the
// embedded core plugins and the owner's installed ones), builds the MCP
// server from their manifests, routes each tool call through the policy gate
// to a pooled plugin instance, and answers with MCP results.
//
// Subpackages: manifest (strict manifest decoding), plugin (the wasm
// runtime: compilation cache, instance pools, limits), policy (the path
// policy), config (the owner's config file and directories), core (the
// embedded core plugins), mcpserver (the MCP server over mcp-go).
package host

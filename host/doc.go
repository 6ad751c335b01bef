// Package host is juju's runtime: it loads the plugin catalog (the embedded
// core plugins and the owner's installed ones), opens the workspace
// (internal/workspace), links every host function into the plugins, and
// runs each tool call through the policy gate (gate.go: tier × trust mode
// → run, ask the owner through Request.Asker, or wait for `juju
// approvals`) to a pooled plugin instance, auditing every call.
//
// Subpackages: plugin (the wasm runtime: compilation cache, instance pools,
// limits, grant and tier checks on host calls), core (the embedded core
// plugins), install (the owner's plugin lifecycle), pluginbuild (builds a
// plugin and checks its manifest against its describe export), and
// mcpserver, the MCP front built from the catalog (mcp-go: tools from
// manifests, argument validation, results and error mapping, elicitation,
// stdio). Only the front and cmd/juju import this package; the domain
// packages it uses live under internal/ and sandbox/.
package host

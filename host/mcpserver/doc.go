// Package mcpserver serves juju's catalog over MCP with mcp-go.
//
// Tools are built from the plugins' manifests, so tools/list never runs
// plugin code. A call's arguments are validated against the tool's input
// schema here, the same over every transport: arguments that do not fit
// are a tool result with isError and INVALID_ARGUMENT naming each argument
// at fault (SEP-1303), audited, as is everything that goes wrong after
// that, each with a stable code and structured content {"code", "message"}
// (SPEC §10). An unknown tool is a JSON-RPC "invalid params" error. Every
// output schema is widened to admit that error shape, since clients
// validate structured content even on errors.
package mcpserver

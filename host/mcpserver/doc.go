// Package mcpserver serves juju's catalog over MCP with mcp-go.
//
// Tools are built from the plugins' manifests, so tools/list never runs
// plugin code. A call's arguments are validated against the tool's input
// schema here: arguments that do not fit are a JSON-RPC "invalid params"
// error, as is an unknown tool; everything that goes wrong after that is a
// tool result with isError, a stable code and structured content
// {"code", "message"} (SPEC §10). Every output schema is widened to admit
// that error shape, since clients validate structured content even on
// errors.
package mcpserver

// Package test holds juju's end-to-end tests: they build the juju binary,
// start it as a separate process and drive it through mcp-go's real MCP
// client over stdio, on real workspaces made in temporary folders.
package test

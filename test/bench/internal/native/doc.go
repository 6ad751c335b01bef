// Package native does the work of juju's five read tools (list_directory,
// read_file, read_files, file_info, glob_files) directly in Go: no wasm, no
// policy beyond keeping paths inside one root. Its text output follows the
// core read tools', so that the benchmarks compare the same work done two
// ways. The native baseline MCP server serves it over stdio, and the
// benchmarks and the report call it in-process.
package native

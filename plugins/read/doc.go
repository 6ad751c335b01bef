// Package read holds juju's core read tools: list_directory, read_file,
// read_files, file_info and glob_files, and approval_status. They read the
// workspace only through juju's fs host functions, so the host's path
// policy and secret denial apply to every byte they see; they need the
// fs.read capability and nothing else (approval_status needs none).
//
// The package is a library: its init functions register the tools, and
// plugins/core links it into juju's core plugin. Each tool lives in its own
// file beside its arguments and result types, from which the SDK generates
// the schemas in plugins/core/manifest.json
// (go run ./internal/cmd/buildplugins -update plugins/core rewrites them).
package read

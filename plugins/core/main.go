// Command core is juju's core plugin (core): the read and edit tools in
// one wasm module — the read tools and approval_status (plugins/read),
// search_code, read_instructions and environment_info (plugins/search),
// project_overview (plugins/overview), the semantic tools
// go_to_definition, find_references, find_symbol, document_symbols and
// get_diagnostics (plugins/semantic) and the journaled edit tools, review
// workflow, change history, rollback and todo list (plugins/edit). Each of those packages registers its tools in its init
// functions; this command only links them.
//
// One module rather than one per package: each Go wasm module carries its
// own Go runtime and standard library, so each costs about 20 MB of
// compiled machine code and a warm instance with its own linear memory
// (see docs/RATIONALE.md, "Core tools share two wasm modules"). The tools
// that run commands stay apart in core-exec (plugins/exec), the task
// discoverers in core-discover (plugins/discover), and read_image with its
// image decoders in core-image (plugins/image).
package main

import (
	_ "github.com/jujutools/juju/plugins/edit"
	_ "github.com/jujutools/juju/plugins/overview"
	_ "github.com/jujutools/juju/plugins/read"
	_ "github.com/jujutools/juju/plugins/search"
	_ "github.com/jujutools/juju/plugins/semantic"
)

func main() {}

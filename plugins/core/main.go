// Command core is juju's core module. It serves two plugins:
//
//   - core: the read tools and approval_status (plugins/read), search_code,
//     read_instructions and environment_info (plugins/search),
//     project_overview (plugins/overview), the semantic tools
//     go_to_definition, find_references, find_symbol, document_symbols and
//     get_diagnostics (plugins/semantic) and the journaled edit tools,
//     review workflow, change history, rollback and todo list
//     (plugins/edit);
//   - core-exec: the command, job and git tools and fetch_url
//     (plugins/exec), whose tools name core-exec as their plugin.
//
// Each of those packages registers its tools in its init functions; this
// command only links them. The host runs each plugin in instances of its
// own under that plugin's grants alone, so core's file tools never hold
// the right to run programs, and core-exec's tools never the right to
// write files.
//
// One module rather than one per package: each Go wasm module carries its
// own Go runtime and standard library, so each costs about 20 MB of
// compiled machine code and decoded wasm in every juju process (see
// docs/RATIONALE.md, "Core tools share two wasm modules" and "core-exec
// runs the core module"). The task discoverers stay apart in
// core-discover (plugins/discover), loaded by the first project_overview,
// and read_image with its image decoders in core-image (plugins/image).
package main

import (
	_ "github.com/jujutools/juju/plugins/edit"
	_ "github.com/jujutools/juju/plugins/exec"
	_ "github.com/jujutools/juju/plugins/overview"
	_ "github.com/jujutools/juju/plugins/read"
	_ "github.com/jujutools/juju/plugins/search"
	_ "github.com/jujutools/juju/plugins/semantic"
)

func main() {}

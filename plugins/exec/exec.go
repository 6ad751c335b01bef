// Package exec holds the tools of juju's core-exec plugin: exec_command,
// run_command, run_commands, job_status, job_output, job_wait, cancel_job
// and list_jobs over juju's exec host functions, git_status, git_diff,
// git_log and git_commit over its git host function, and fetch_url over
// its fetch host function.
//
// The tools are built into the core module (plugins/core), which serves two
// plugins: core, and core-exec, whose manifest is in this folder. Every tool
// here names core-exec as its plugin, so the host routes it only to
// core-exec's instances, which hold core-exec's grants and no others: the
// exec, exec.shell, git and net.fetch capabilities. One module rather than
// two spares a second Go runtime's machine code and decoded wasm in every
// juju process (docs/RATIONALE.md, "core-exec runs the core module").
//
// The plugin holds no process or socket of its own: the host runs every
// command as a job (argv or bash -c, empty stdin, scrubbed environment, own
// process group, logs outside the workspace, optional OS sandbox), checks
// every git argument list, and makes every web request (https only, every
// connection checked against private and special-purpose addresses, caps,
// HTML to Markdown); the plugin shapes the calls and the results.
package exec

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// plugin is the plugin every tool of this package belongs to.
const plugin = "core-exec"

// execTool returns the options of an exec-tier tool.
func execTool(title, description string, output any, ann abi.Annotations) juju.ToolOptions {
	return juju.ToolOptions{Title: title, Description: description, Tier: abi.TierExec, Annotations: ann, Output: output, Plugin: plugin}
}

// readTool returns the options of a tool that only reads (juju.ReadTool).
func readTool(title, description string, output any) juju.ToolOptions {
	o := juju.ReadTool(title, description, output)
	o.Plugin = plugin
	return o
}

// runs are the annotations of a tool that runs arbitrary commands.
var runs = abi.Annotations{Destructive: true, OpenWorld: true}

// Command exec is juju's core command, git and web plugin (core-exec):
// exec_command, run_command, run_commands, job_status, job_output,
// job_wait, cancel_job and list_jobs over juju's exec host functions,
// git_status, git_diff, git_log and git_commit over its git host function,
// and fetch_url over its fetch host function.
//
// The plugin holds no process or socket of its own: the host runs every
// command as a job (argv or bash -c, empty stdin, scrubbed environment, own
// process group, logs outside the workspace, optional OS sandbox), checks
// every git argument list, and makes every web request (https only, every
// connection checked against private and special-purpose addresses, caps,
// HTML to Markdown); the plugin shapes the calls and the results. It asks
// for the exec, exec.shell, git and net.fetch capabilities: the rights to
// reach the outside world live in this module only.
package main

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// execTool returns the options of an exec-tier tool.
func execTool(title, description string, output any, ann abi.Annotations) juju.ToolOptions {
	return juju.ToolOptions{Title: title, Description: description, Tier: abi.TierExec, Annotations: ann, Output: output}
}

// runs are the annotations of a tool that runs arbitrary commands.
var runs = abi.Annotations{Destructive: true, OpenWorld: true}

func main() {}

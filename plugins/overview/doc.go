// Package overview holds juju's project_overview tool: a first look at a
// workspace — its languages by size, git branch and state, the instruction
// files it holds, and the tasks every loaded discoverer finds
// (juju_discover_tasks). It needs fs.read and git; without git (or outside
// a repository) the git section says so and the rest of the overview still
// comes back. The package is a library linked into juju's core plugin
// (plugins/core).
package overview

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

func init() {
	juju.Tool("project_overview", juju.ToolOptions{
		Title: "Project overview",
		Description: "Gives a first look at the workspace in one call: the languages by size, the number and size of files, " +
			"the git branch and state (changes, ahead/behind), the instruction files present (AGENTS.md, CLAUDE.md, .cursor/rules …: paths only), " +
			"and the tasks found by every task discoverer (make, npm/pnpm/yarn/bun, pytest, tox, nox, cargo, go, composer, gradle, maven, just, task, deno, mise), " +
			"each with the command to run it, its folder and the file and line it comes from. Build files are read, never run. " +
			"A file that could not be parsed is listed under warnings and the rest still comes back. Use it before building, testing or exploring a project. " +
			"Many tasks are listed in parts of about 90 KB: offset lists the tasks after the first ones.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
		Output:      Overview{},
	}, projectOverview)
}

// Package edit holds juju's core edit tools: write_file, edit_file,
// delete_path, move_path, make_directory, apply_patch, replace_in_files,
// the review workflow (preview_changes, apply_changes, discard_changes),
// change_history, rollback_changes, and the per-workspace todo list
// (todo_write, todo_read). The package is a library linked into juju's
// core plugin (plugins/core).
//
// The tools change the workspace only through juju's journal host
// functions (capability fs.write): every write is checked against the path
// policy, hash-verified, written atomically, recorded and reversible. They
// read through fs.read, and keep the todo list in the plugin's own
// key-value space (capability state), outside the repository.
//
// Each tool lives in its own file beside its arguments type.
package edit

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// editTool returns the options of a tool that changes files: tier E,
// closed world.
func editTool(title, description string, output any, destructive, idempotent bool) juju.ToolOptions {
	return juju.ToolOptions{
		Title:       title,
		Description: description,
		Tier:        abi.TierEdit,
		Annotations: abi.Annotations{Destructive: destructive, Idempotent: idempotent},
		Output:      output,
	}
}

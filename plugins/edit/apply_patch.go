package edit

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// ApplyPatchArgs are the arguments of apply_patch.
type ApplyPatchArgs struct {
	Patch  string `json:"patch" jsonschema:"required" min:"1" desc:"A unified diff (as git diff or diff -u print it) over one or more files. --- /dev/null creates a file, +++ /dev/null deletes one."`
	DryRun bool   `json:"dryRun,omitempty" desc:"Check that every hunk applies and show the result without writing."`
}

func init() {
	juju.Tool("apply_patch", editTool("Apply patch",
		"Applies a unified diff to the workspace, all files at once or none: hunks must match the files exactly (no fuzz; a hunk may only "+
			"sit at other line numbers when lines above it moved). One hunk that does not apply fails the whole call with CONFLICT naming the file "+
			"and the hunk, and nothing is written. Handles new files (--- /dev/null), deletions (+++ /dev/null) and git's headers: renames, empty files made or deleted, the executable bit; "+
			"a binary patch, a copy or a symbolic link refuses the whole patch. "+
			"CRLF and UTF-16 files are matched as the UTF-8 text read_file shows, with plain \\n line ends, and keep their line ends and encoding. Journaled: rollback_changes undoes the whole patch.",
		abi.ChangeResult{}, true, false), applyPatch)
}

func applyPatch(_ *juju.Call, in ApplyPatchArgs) (*juju.Result, error) {
	c := new(juju.Change).Add(abi.ChangeOp{Op: abi.OpPatch, Patch: in.Patch}, nil)
	var res *abi.ChangeResult
	var err error
	if in.DryRun {
		res, err = c.DryRun()
	} else {
		res, err = c.Apply()
	}
	if err != nil {
		return nil, err
	}
	verb := "Applied the patch"
	if in.DryRun {
		verb = "Every hunk of the patch applies."
	}
	return juju.Text(summary(verb, res)).WithStructured(res), nil
}

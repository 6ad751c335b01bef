package edit

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// MovePathArgs are the arguments of move_path.
type MovePathArgs struct {
	Path        string `json:"path" jsonschema:"required" min:"1" desc:"The file, symlink or folder to move."`
	Destination string `json:"destination" jsonschema:"required" min:"1" desc:"Its new path (folder and name). Missing folders are created."`
	Overwrite   bool   `json:"overwrite,omitempty" desc:"Replace an existing file at destination."`
}

func init() {
	juju.Tool("move_path", editTool("Move path",
		"Moves or renames a file, a symlink or a folder (with everything inside) to destination, the full new path. "+
			"An existing destination file is refused unless overwrite. Journaled: rollback_changes moves it back.",
		abi.ChangeResult{}, true, false), movePath)
}

func movePath(_ *juju.Call, in MovePathArgs) (*juju.Result, error) {
	res, err := new(juju.Change).Add(abi.ChangeOp{Op: abi.OpMove, Path: in.Path, To: in.Destination, Overwrite: in.Overwrite}, nil).Apply()
	if err != nil {
		return nil, err
	}
	return juju.Text(summary("Moved "+juju.PathText(in.Path)+" to "+juju.PathText(in.Destination), res)).WithStructured(res), nil
}

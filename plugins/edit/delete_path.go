package edit

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// DeletePathArgs are the arguments of delete_path.
type DeletePathArgs struct {
	Path           string `json:"path" jsonschema:"required" min:"1" desc:"The file, symlink or folder to delete: relative to the first workspace root, or absolute inside a root."`
	Recursive      bool   `json:"recursive,omitempty" desc:"Delete a folder that is not empty, with everything inside."`
	ExpectedSha256 string `json:"expectedSha256,omitempty" desc:"For a file: the SHA-256 it must have now (FILE_CHANGED otherwise)."`
}

func init() {
	juju.Tool("delete_path", editTool("Delete path",
		"Deletes a file, a symlink (the link, not its target) or an empty folder; a folder with content needs recursive. "+
			"Every deleted file's content is kept in the journal: rollback_changes restores it.",
		abi.ChangeResult{}, true, false), deletePath)
}

func deletePath(_ *juju.Call, in DeletePathArgs) (*juju.Result, error) {
	res, err := new(juju.Change).Add(abi.ChangeOp{Op: abi.OpDelete, Path: in.Path, Recursive: in.Recursive, ExpectedSHA256: in.ExpectedSha256}, nil).Apply()
	if err != nil {
		return nil, err
	}
	return juju.Text(summary("Deleted "+juju.PathText(in.Path), res)).WithStructured(res), nil
}

package edit

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// MakeDirectoryArgs are the arguments of make_directory.
type MakeDirectoryArgs struct {
	Path string `json:"path" jsonschema:"required" min:"1" desc:"The folder to make, with its missing parents."`
}

func init() {
	juju.Tool("make_directory", editTool("Make directory",
		"Makes a folder and any missing folders above it, like mkdir -p. A folder that already exists is fine. Journaled.",
		abi.ChangeResult{}, false, true), makeDirectory)
}

func makeDirectory(_ *juju.Call, in MakeDirectoryArgs) (*juju.Result, error) {
	res, err := new(juju.Change).Add(abi.ChangeOp{Op: abi.OpMkdir, Path: in.Path}, nil).Apply()
	if err != nil {
		return nil, err
	}
	if res.ChangeID == "" {
		// "nothing to change (the files already hold that content)"
		// spoke of files and content for a folder that was there.
		return juju.Text(juju.PathText(in.Path) + " is already a folder; nothing was changed.\n").WithStructured(res), nil
	}
	return juju.Text(summary("Made "+juju.PathText(in.Path), res)).WithStructured(res), nil
}

package edit

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// EditFileArgs are the arguments of edit_file.
type EditFileArgs struct {
	Path           string `json:"path" jsonschema:"required" min:"1" desc:"The file to edit: relative to the first workspace root, or absolute inside a root."`
	OldString      string `json:"oldString" jsonschema:"required" desc:"The exact text to replace, as read_file shows it (without line numbers), with enough surrounding lines to occur only once. Empty to create a new file (or fill an empty one) with newString."`
	NewString      string `json:"newString" jsonschema:"required" desc:"The text to put in its place (may be empty to delete oldString)."`
	ReplaceAll     bool   `json:"replaceAll,omitempty" desc:"Replace every occurrence of oldString instead of requiring exactly one."`
	ExpectedSha256 string `json:"expectedSha256,omitempty" desc:"The SHA-256 the file had when you read it; the edit fails with FILE_CHANGED if it changed since."`
}

func init() {
	juju.Tool("edit_file", editTool("Edit file",
		"Replaces oldString by newString in a file, exactly: no fuzzy matching. oldString must occur exactly once unless replaceAll is set; "+
			"otherwise AMBIGUOUS_EDIT gives the line of each occurrence. An empty oldString creates the file (or fills an empty one) with newString. If it does not occur, NO_MATCH names the closest lines and what differs "+
			"(tabs against spaces, trailing blanks, letter case, line ends). The file's CRLF line ends, BOM, UTF-16 encoding and "+
			"permissions are kept (match the UTF-8 text read_file shows, with plain \\n line ends). The edit is atomic, journaled and can be undone with rollback_changes; the result holds the diff.",
		abi.ChangeResult{}, true, false), editFile)
}

func editFile(_ *juju.Call, in EditFileArgs) (*juju.Result, error) {
	res, err := new(juju.Change).Edit(abi.ChangeOp{
		Path: in.Path, OldString: in.OldString, NewString: in.NewString, ReplaceAll: in.ReplaceAll, ExpectedSHA256: in.ExpectedSha256,
	}).Apply()
	if err != nil {
		return nil, err
	}
	return juju.Text(summary("Edited "+juju.PathText(in.Path), res)).WithStructured(res), nil
}

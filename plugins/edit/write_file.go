package edit

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// WriteFileArgs are the arguments of write_file.
type WriteFileArgs struct {
	Path           string `json:"path" jsonschema:"required" min:"1" desc:"The file to create or replace: relative to the first workspace root, or absolute inside a root. Missing folders are created."`
	Content        string `json:"content" jsonschema:"required" desc:"The whole new content of the file."`
	ExpectedSha256 string `json:"expectedSha256,omitempty" desc:"The SHA-256 the file has now (from file_info or an earlier change); the write fails with FILE_CHANGED if the file changed since."`
}

func init() {
	juju.Tool("write_file", editTool("Write file",
		"Creates a file, or replaces the whole content of an existing one, with content. Missing folders are created. "+
			"An existing file keeps its permissions, and its CRLF line ends, BOM and UTF-16 encoding when content has none; a symlink is written through "+
			"(its target changes, the link stays). For a small change to an existing file prefer edit_file. "+
			"The write is atomic, journaled and can be undone with rollback_changes. "+
			".git internals, secrets and paths outside the workspace are refused.",
		abi.ChangeResult{}, true, true), writeFile)
}

func writeFile(_ *juju.Call, in WriteFileArgs) (*juju.Result, error) {
	res, err := new(juju.Change).Write(abi.ChangeOp{Path: in.Path, ExpectedSHA256: in.ExpectedSha256, KeepStyle: true}, []byte(in.Content)).Apply()
	if err != nil {
		return nil, err
	}
	return juju.Text(summary("Wrote "+juju.PathText(in.Path), res)).WithStructured(res), nil
}

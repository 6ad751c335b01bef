package read

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// FileInfoArgs are the arguments of file_info.
type FileInfoArgs struct {
	Path string `json:"path" jsonschema:"required" min:"1" desc:"The path to describe: relative to the first workspace root, or absolute inside a root."`
}

func init() {
	juju.Tool("file_info", juju.ReadTool("File info",
		"Describes one path without reading it: type (file, dir, symlink, other), size, modification time, permissions, "+
			"the SHA-256 of a file's content (up to 1 GiB), and a symlink's target. Use it to check that a path exists, "+
			"or to get the hash an edit can be made conditional on.",
		abi.StatResult{}), fileInfo)
}

func fileInfo(_ *juju.Call, in FileInfoArgs) (*juju.Result, error) {
	st, err := juju.Stat(abi.StatRequest{Path: in.Path, Hash: true})
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "path: %s\ntype: %s%s\nsize: %s\nmodified: %s\nmode: %s\n", juju.PathText(st.Path), st.Type, specialKind(st), exactSize(st.Size), st.ModTime, st.Mode)
	if st.Link != "" {
		fmt.Fprintf(&b, "symlink to: %s\n", juju.PathText(st.Link))
	}
	switch {
	case st.SHA256 != "":
		fmt.Fprintf(&b, "sha256: %s\n", st.SHA256)
	case st.Type == abi.TypeFile && st.Size > abi.MaxHashBytes:
		fmt.Fprintf(&b, "sha256: not computed: the file is larger than %d GiB\n", abi.MaxHashBytes>>30)
	}
	return juju.Text(b.String()).WithStructured(st), nil
}

// specialKind says what a path of type other is, from its mode as Go
// writes it (prw-r--r-- for a named pipe): "other" alone left the model to
// decode the mode, or to try read_file on a pipe.
func specialKind(st *abi.StatResult) string {
	if st.Type != abi.TypeOther || st.Mode == "" {
		return ""
	}
	kind := "a special file"
	switch {
	case strings.HasPrefix(st.Mode, "p"):
		kind = "a named pipe (FIFO)"
	case strings.HasPrefix(st.Mode, "S"):
		kind = "a socket"
	case strings.HasPrefix(st.Mode, "Dc"):
		kind = "a character device"
	case strings.HasPrefix(st.Mode, "D"):
		kind = "a block device"
	}
	return " (" + kind + ", not a file: no tool reads or edits it)"
}

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

// FileInfo is the structured content of file_info.
type FileInfo struct {
	Path    string `json:"path" desc:"The path, relative to the first root."`
	Type    string `json:"type" enum:"file,dir,symlink,other" desc:"What the path is; for a symlink, the type of its target."`
	Size    int64  `json:"size" desc:"Size in bytes."`
	ModTime string `json:"modTime" desc:"Last modification time (RFC 3339)."`
	Mode    string `json:"mode" desc:"Permission bits, as ls -l shows them (e.g. -rw-r--r--)."`
	SHA256  string `json:"sha256,omitempty" desc:"SHA-256 of a file's content, in hex; pass it as expectedSha256 to an edit."`
	Link    string `json:"link,omitempty" desc:"When the path is a symlink: where it points, relative to the first root."`
}

func init() {
	juju.Tool("file_info", juju.ReadTool("File info",
		"Describes one path without reading it: type (file, dir, symlink, other), size, modification time, permissions, "+
			"the SHA-256 of a file's content, and a symlink's target. Use it to check that a path exists, "+
			"or to get the hash an edit can be made conditional on.",
		FileInfo{}), fileInfo)
}

func fileInfo(_ *juju.Call, in FileInfoArgs) (*juju.Result, error) {
	st, err := juju.Stat(abi.StatRequest{Path: in.Path, Hash: true})
	if err != nil {
		return nil, err
	}
	fi := FileInfo{Path: st.Path, Type: st.Type, Size: st.Size, ModTime: st.ModTime, Mode: st.Mode, SHA256: st.SHA256, Link: st.Link}
	var b strings.Builder
	fmt.Fprintf(&b, "path: %s\ntype: %s\nsize: %s\nmodified: %s\nmode: %s\n", fi.Path, fi.Type, exactSize(fi.Size), fi.ModTime, fi.Mode)
	if fi.Link != "" {
		fmt.Fprintf(&b, "symlink to: %s\n", fi.Link)
	}
	if fi.SHA256 != "" {
		fmt.Fprintf(&b, "sha256: %s\n", fi.SHA256)
	}
	return juju.Text(b.String()).WithStructured(fi), nil
}

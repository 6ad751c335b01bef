package native

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
)

// FileInfoArgs are the arguments of file_info.
type FileInfoArgs struct {
	Path string `json:"path" jsonschema:"required" jsonschema_description:"The path to describe, relative to the root."`
}

// fileInfo is the structured content of file_info.
type fileInfo struct {
	Path    string `json:"path"`
	Type    string `json:"type"`
	Size    int64  `json:"size"`
	ModTime string `json:"modTime"`
	Mode    string `json:"mode"`
	SHA256  string `json:"sha256,omitempty"`
}

// FileInfo is file_info.
func (f *FS) FileInfo(in FileInfoArgs) (*Result, error) {
	abs, display, err := f.resolve(in.Path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, errorf("NOT_FOUND", "%s does not exist", display)
	}
	fi := fileInfo{Path: display, Type: fileType(st.Mode()), Size: st.Size(), ModTime: modTime(st.ModTime()), Mode: st.Mode().String()}
	if st.Mode().IsRegular() {
		if fi.SHA256, err = hashFile(abs); err != nil {
			return nil, errorf("INVALID_ARGUMENT", "%s cannot be read", display)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "path: %s\ntype: %s\nsize: %d bytes (%s)\nmodified: %s\nmode: %s\n", fi.Path, fi.Type, fi.Size, size(fi.Size), fi.ModTime, fi.Mode)
	if fi.SHA256 != "" {
		fmt.Fprintf(&b, "sha256: %s\n", fi.SHA256)
	}
	return encode(b.String(), fi)
}

func hashFile(name string) (string, error) {
	fh, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

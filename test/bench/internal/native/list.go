package native

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ListDirectoryArgs are the arguments of list_directory.
type ListDirectoryArgs struct {
	Path string `json:"path,omitempty" jsonschema_description:"The folder to list, relative to the root."`
}

// Entry is one entry of a listing or a glob, with the fields of the plugin's.
type Entry struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Type    string `json:"type"`
	Size    int64  `json:"size"`
	ModTime string `json:"modTime"`
	Target  string `json:"target,omitempty"`
}

// listing is the structured content of list_directory.
type listing struct {
	Path    string  `json:"path"`
	Entries []Entry `json:"entries"`
}

// ListDirectory is list_directory.
func (f *FS) ListDirectory(in ListDirectoryArgs) (*Result, error) {
	abs, display, err := f.resolve(in.Path)
	if err != nil {
		return nil, err
	}
	des, err := os.ReadDir(abs)
	if err != nil {
		return nil, errorf("INVALID_ARGUMENT", "%s is not a folder", display)
	}
	out := listing{Path: display, Entries: make([]Entry, 0, len(des))}
	for _, de := range des {
		info, err := de.Info()
		if err != nil {
			continue // gone since the listing
		}
		e := Entry{Name: de.Name(), Path: path.Join(display, de.Name()), Type: fileType(info.Mode()), Size: info.Size(), ModTime: modTime(info.ModTime())}
		if e.Type == "symlink" {
			if _, d, err := f.resolve(filepath.Join(abs, de.Name())); err == nil {
				e.Target = d
			}
		}
		out.Entries = append(out.Entries, e)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n", out.Path, plural(len(out.Entries), "entry", "entries"))
	for _, e := range out.Entries {
		b.WriteString(entryLine(e))
	}
	return encode(b.String(), out)
}

// entryLine is one line of a listing.
func entryLine(e Entry) string {
	switch e.Type {
	case "dir":
		return e.Name + "/\n"
	case "file":
		return fmt.Sprintf("%s  (%s)\n", e.Name, size(e.Size))
	case "symlink":
		if e.Target != "" {
			return e.Name + " -> " + e.Target + "\n"
		}
		return e.Name + " -> (broken: its target is missing or loops)\n"
	}
	return e.Name + "  (special file)\n"
}

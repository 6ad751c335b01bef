package native

import (
	"encoding/json"
	"fmt"
)

// Tools names the read tools FS serves.
var Tools = []string{"list_directory", "read_file", "read_files", "file_info", "glob_files"}

// Call runs a tool from its JSON arguments, as the host hands them to a
// plugin: decoding them is part of the work.
func (f *FS) Call(tool string, args json.RawMessage) (*Result, error) {
	switch tool {
	case "read_file":
		return call(args, f.ReadFile)
	case "read_files":
		return call(args, f.ReadFiles)
	case "list_directory":
		return call(args, f.ListDirectory)
	case "file_info":
		return call(args, f.FileInfo)
	case "glob_files":
		return call(args, f.GlobFiles)
	}
	return nil, errorf("INVALID_ARGUMENT", "no tool %q", tool)
}

func call[In any](args json.RawMessage, h func(In) (*Result, error)) (*Result, error) {
	var in In
	if len(args) > 0 {
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, errorf("INVALID_ARGUMENT", "the arguments do not decode: %v", err)
		}
	}
	res, err := h(in)
	if err != nil {
		if _, ok := err.(*Error); !ok {
			err = fmt.Errorf("native: %w", err)
		}
	}
	return res, err
}

package native

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// FS serves the read tools over one root.
type FS struct {
	root string // absolute, symlinks evaluated
}

// New returns an FS over root.
func New(root string) (*FS, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("native: root: %w", err)
	}
	return &FS{root: real}, nil
}

// Root is the root FS serves, absolute and with symlinks evaluated.
func (f *FS) Root() string { return f.root }

// Result is a tool's answer: the text for the model and the structured
// content, already encoded, as the plugin hands both to the host.
type Result struct {
	Text       string
	Structured json.RawMessage
}

// Error is a tool error: one of juju's codes and a message.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// resolve turns a tool's path into an absolute path inside the root (with
// symlinks evaluated) and its display form (root-relative, slashed). It is
// the baseline's only policy.
func (f *FS) resolve(p string) (abs, display string, err error) {
	if p == "" {
		p = "."
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(f.root, p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", "", errorf("NOT_FOUND", "%s does not exist", p)
		}
		return "", "", errorf("INVALID_ARGUMENT", "%s cannot be read: %v", p, err)
	}
	rel, err := filepath.Rel(f.root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", "", errorf("PATH_DENIED", "%s is outside the workspace", p)
	}
	return real, filepath.ToSlash(rel), nil
}

// encode finishes a result with its structured content.
func encode(text string, structured any) (*Result, error) {
	b, err := json.Marshal(structured)
	if err != nil {
		return nil, err
	}
	return &Result{Text: text, Structured: b}, nil
}

// fileType names an entry's type as juju does.
func fileType(m os.FileMode) string {
	switch {
	case m.IsRegular():
		return "file"
	case m.IsDir():
		return "dir"
	case m&os.ModeSymlink != 0:
		return "symlink"
	}
	return "other"
}

//go:build unix

package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A cwd that is a link to a file is named as the model gave it, then
// where it leads, as list_directory names one: the error named only the
// link's target, a path the model never wrote.
func TestCwdLinkToFileNamesTheLink(t *testing.T) {
	root := gitRepo(t)
	if err := os.Symlink("main.go", filepath.Join(root, "here")); err != nil {
		t.Fatal(err)
	}
	s := startExec(t, root)
	want := `cwd "here" is a link to the file "main.go", not a folder`
	for _, tool := range []string{"run_command", "git_status"} {
		args := map[string]any{"cwd": "here"}
		if tool == "run_command" {
			args["command"] = "true"
		}
		if msg := s.fail(tool, args, "INVALID_ARGUMENT"); !strings.Contains(msg, want) {
			t.Errorf("%s: %q, want it to say %q", tool, msg, want)
		}
	}
	if msg := s.fail("run_command", map[string]any{"command": "true", "cwd": "main.go"}, "INVALID_ARGUMENT"); !strings.Contains(msg, `cwd "main.go" is a file, not a folder`) {
		t.Errorf("run_command in a file: %q", msg)
	}
}

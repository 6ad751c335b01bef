package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/visible"
)

// workspaceAbove finds, for a workspace of one root that holds no file
// named name (its journal, its audit log), the nearest folder above that
// root which juju served as a workspace of its own and which holds one:
// the owner who runs juju rollback or juju audit in a subfolder of the
// project is told where its changes are, not only that there are none
// here. It returns "" when the workspace has the file, has several roots,
// or no folder above it was served.
func workspaceAbove(dirs config.Dirs, roots []string, name string) string {
	if len(roots) != 1 {
		return ""
	}
	root := config.RealRoot(roots[0])
	if exists(filepath.Join(dirs.Workspace([]string{root}), name)) {
		return ""
	}
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		if exists(filepath.Join(dirs.Workspace([]string{dir}), name)) {
			return dir
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// aboveHint is the sentence that sends the owner to the workspace above,
// for the command (rollback, audit) that found none of what (changes,
// calls) here; "" when there is none.
func aboveHint(command, what, above string) string {
	if above == "" {
		return ""
	}
	return fmt.Sprintf("juju keeps %s per workspace, the --root folders juju stdio was given, and it served %s, a folder above this one: see them with juju %s --root %s",
		what, visible.String(above), command, shellWord(above))
}

// shellWord quotes a path for the owner to paste into a shell when it
// needs it, rendered visible.
func shellWord(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '/' || r == '.' || r == '_' || r == '-' || r == '+' || r == ',' || r == ':' || r == '@') {
			return visible.String(fmt.Sprintf("'%s'", escapeQuote(s)))
		}
	}
	return s
}

func escapeQuote(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r == '\'' {
			out = append(out, []rune(`'\''`)...)
			continue
		}
		out = append(out, r)
	}
	return string(out)
}

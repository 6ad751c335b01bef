package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

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

// workspaceHint is the sentence that sends the owner of a workspace
// without the file name (its journal, its audit log) to the workspace
// that has it: the folder above (workspaceAbove), or the same roots in
// another order. The state is kept per ordered list of roots, since a
// change names each path by its root's place in the list, so `juju stdio
// --root a --root b` and `juju rollback --root b --root a` are two
// workspaces, and the second said only that nothing was recorded. It is
// "" when there is none.
func workspaceHint(dirs config.Dirs, roots []string, name, command, what string) string {
	if hint := aboveHint(command, what, workspaceAbove(dirs, roots, name)); hint != "" {
		return hint
	}
	order := reordered(dirs, roots, name)
	if order == nil {
		return ""
	}
	args := make([]string, len(order))
	for i, r := range order {
		args[i] = "--root " + shellWord(r)
	}
	return fmt.Sprintf("juju keeps %s per workspace, the --root folders juju stdio was given in their order, and it served these folders in another order: see them with juju %s %s",
		what, command, strings.Join(args, " "))
}

// reordered returns roots in the first other order whose workspace holds
// a file named name, or nil. It tries every order of up to four roots (24)
// and none of more, and none when the workspace holds the file.
func reordered(dirs config.Dirs, roots []string, name string) []string {
	if len(roots) < 2 || len(roots) > 4 || exists(filepath.Join(dirs.Workspace(roots), name)) {
		return nil
	}
	var found []string
	var permute func(k int, p []string)
	permute = func(k int, p []string) {
		if found != nil {
			return
		}
		if k == len(p) {
			if !slices.Equal(p, roots) && exists(filepath.Join(dirs.Workspace(p), name)) {
				found = slices.Clone(p)
			}
			return
		}
		for i := k; i < len(p); i++ {
			p[k], p[i] = p[i], p[k]
			permute(k+1, p)
			p[k], p[i] = p[i], p[k]
		}
	}
	permute(0, slices.Clone(roots))
	return found
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

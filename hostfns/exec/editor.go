package exec

import "strings"

// A command reads an empty stdin and has no terminal, so no editor can run
// in it: git commit without -m, git rebase -i or git tag -a would start vi,
// which gives up after a few seconds and leaves hundreds of terminal escape
// codes in the output, and the AI learns nothing. When the owner's
// environment names no editor (GIT_EDITOR, VISUAL or EDITOR), commands get
// a GIT_EDITOR that fails at once and says what to do instead. git runs it
// through sh with the file to edit after it ("$@"), which it never reaches.
// An owner who wants another editor for commands sets one of the three in
// the environment juju starts with.

// editorRefusal is what noEditor's GIT_EDITOR prints on stderr.
const editorRefusal = `juju runs commands without a terminal, so no editor can open; pass the text instead: ` +
	`git commit -m MESSAGE (or -F FILE), --no-edit for merge, revert and commit --amend, ` +
	`GIT_SEQUENCE_EDITOR="sed -i 2s/^pick/squash/" git rebase -i HEAD~2.`

// refusingEditor is the GIT_EDITOR noEditor sets: shell code, as git runs
// an editor with sh -c.
const refusingEditor = `echo '` + editorRefusal + `' >&2; exit 1;`

// noEditor returns env with GIT_EDITOR set to refusingEditor when env sets
// none of GIT_EDITOR, VISUAL and EDITOR to a non-empty value, env itself
// otherwise.
func noEditor(env []string) []string {
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if value != "" && (name == "GIT_EDITOR" || name == "VISUAL" || name == "EDITOR") {
			return env
		}
	}
	return append(env[:len(env):len(env)], "GIT_EDITOR="+refusingEditor)
}

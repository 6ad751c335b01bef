package discover

import (
	"bytes"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// Bounds of a task's fields, in bytes. A name, a command or a description
// longer than its bound is cut; a runner or a path longer is refused: cut,
// it would name another program or file.
const (
	maxName        = 200  // a task's name, as its build tool spells it
	maxCommand     = 1000 // a command a person types, not a script
	maxDescription = 500  // one line saying what the task does
	maxMessage     = 1000 // a warning: a file and what is wrong with it
	maxRunner      = 100  // a program's name: npm, ./gradlew, docker compose
	maxPath        = 4096 // Linux's PATH_MAX: no workspace file has a longer path
)

// clean checks a task from a plugin, core or installed, before the
// project's text and the model see it: a name, a runner and a command are
// required and must be text a person can type (no control, format or
// separator character, valid UTF-8); Cwd and File must be paths as juju
// shows them (see inside); an unknown kind becomes other; the
// description is made one line; over-long fields are cut. What a task
// names can still be anything a repository holds: the text that shows
// it quotes such names (juju.PathText, juju.LineText).
func clean(t abi.Task, roots []string) (abi.Task, bool) {
	if !typable(t.Name) || !typable(t.Command) || !typable(t.Runner) || len(t.Runner) > maxRunner {
		return t, false
	}
	if t.Cwd == "" {
		t.Cwd = "."
	}
	if !inside(t.Cwd, roots) || t.File != "" && !inside(t.File, roots) {
		return t, false
	}
	switch t.Kind {
	case abi.KindBuild, abi.KindTest, abi.KindLint, abi.KindRun, abi.KindOther:
	default:
		t.Kind = abi.KindOther
	}
	if t.Line < 0 {
		t.Line = 0
	}
	t.Name = cut(t.Name, maxName)
	t.Command = cut(t.Command, maxCommand)
	t.Description = cut(oneLine(t.Description), maxDescription)
	return t, true
}

// cleanWarning checks a warning: its file, when given, is a path as juju
// shows it (see inside); its message is made one line and cut.
func cleanWarning(w abi.Warning, roots []string) (abi.Warning, bool) {
	if w.File != "" && !inside(w.File, roots) {
		return w, false
	}
	w.Message = cut(oneLine(w.Message), maxMessage)
	return w, true
}

// typable reports whether s is non-empty, valid UTF-8 and free of the
// characters that break a line or hide (see hidden).
func typable(s string) bool {
	return s != "" && utf8.ValidString(s) && !strings.ContainsFunc(s, hidden)
}

// hidden reports whether r breaks a line, acts on a terminal or does not
// show: a control character (C0, DEL, C1), a format character (bidi
// embeddings, overrides and isolates, zero-width characters, the BOM,
// tags), or a line or paragraph separator.
func hidden(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// oneLine replaces each run of hidden characters in s, with the spaces
// around it, by one space, and invalid UTF-8 by U+FFFD: a description or a
// message is prose, and a line break in it stands for a space.
func oneLine(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, hidden) {
		return s
	}
	b := make([]byte, 0, len(s))
	pending := false // a run of hidden characters ended at the last rune
	for _, r := range s {
		switch {
		case hidden(r):
			b = bytes.TrimRight(b, " ")
			pending = len(b) > 0
		case r == ' ' && pending:
		default:
			if pending {
				b = append(b, ' ')
				pending = false
			}
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}

// inside reports whether p, a path a plugin returned, is one as juju shows
// them (policy.Display): relative to the first root, or absolute inside
// one of the roots, and with no ".." element to climb out; within maxPath.
func inside(p string, roots []string) bool {
	if p == "" || len(p) > maxPath {
		return false
	}
	for el := range strings.SplitSeq(p, "/") {
		if el == ".." {
			return false
		}
	}
	if !path.IsAbs(p) {
		return true
	}
	for _, r := range roots {
		if policy.Within(p, r) {
			return true
		}
	}
	return false
}

// roots lists the workspace roots' paths, as absolute display paths start.
func (s *server) roots() []string {
	if s.pol == nil {
		return nil
	}
	var out []string
	for _, r := range s.pol.Roots() {
		out = append(out, r.Path)
	}
	return out
}

func cut(s string, n int) string { return abi.Cut(s, n) }

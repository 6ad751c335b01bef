// Package task holds what every discoverer of the core-discover plugin
// shares: the read-only view of the workspace they parse through, task
// kinds by name, and line numbers of keys. It runs natively in tests and
// inside the plugin alike.
package task

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
)

// MaxIncluded bounds the bytes of the files one top file includes or
// imports (a Taskfile's includes, a justfile's imports and modules),
// counted at each inclusion: a file may be included along many paths, and
// one Taskfile including a 3 MiB file 256 times made 256 parses of it, the
// discoverer ran past its 10 s and the other Taskfiles' tasks were lost.
// Real ones include a few kilobytes; parsing 4 MiB of YAML takes about
// 0.3 s natively.
const MaxIncluded = 4 << 20

// Result collects the tasks and warnings of one discoverer run.
type Result struct{ abi.DiscoverResult }

// NewResult returns an empty result (tasks an empty list, not null).
func NewResult() *Result {
	return &Result{abi.DiscoverResult{Tasks: []abi.Task{}}}
}

// Add appends a task; an empty Kind is guessed from the name. A task
// whose name starts with "-" is left out with a warning: its runner, given
// the name, would read an option ("make -E…", "npm run --help").
func (r *Result) Add(t abi.Task) {
	if strings.HasPrefix(t.Name, "-") {
		r.Warn(t.File, "line %d: the task %s is not listed: its name starts with \"-\", which %s would read as an option", t.Line, Shell(t.Name), t.Runner)
		return
	}
	if t.Kind == "" {
		t.Kind = Kind(t.Name)
	}
	if t.Cwd == "" {
		t.Cwd = "."
	}
	r.Tasks = append(r.Tasks, t)
}

// Warn records a file that could not be read or parsed.
func (r *Result) Warn(file, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	r.Warnings = append(r.Warnings, abi.Warning{File: file, Message: msg})
}

// Read reads file for a discoverer: its bytes without a byte-order mark,
// or false after a warning naming the file when it cannot be read.
func (r *Result) Read(fsys FS, file string) ([]byte, bool) {
	data, err := fsys.ReadFile(file)
	if err != nil {
		r.Warn(file, "could not be read: %v", err)
		return nil, false
	}
	return StripBOM(data), true
}

// Dir is the folder of a root-relative file, "." at the root.
func Dir(file string) string { return path.Dir(file) }

// Join joins a root-relative folder and a relative path, cleaned; it
// reports false when the result climbs out of the root.
func Join(dir, rel string) (string, bool) {
	p := path.Clean(path.Join(dir, rel))
	if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(rel) {
		return "", false
	}
	return p, true
}

// StripBOM drops a UTF-8 byte order mark.
func StripBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) }

// Kind guesses a task's kind from its name.
func Kind(name string) string {
	n := strings.ToLower(name)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(n, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("test", "spec", "e2e", "pytest", "cov", "bench"):
		return abi.KindTest
	case has("lint", "fmt", "format", "vet", "clippy", "check", "typecheck", "tsc", "prettier", "eslint", "ruff", "mypy", "style"):
		return abi.KindLint
	case has("build", "compile", "bundle", "dist", "package", "release", "install", "generate", "gen"):
		return abi.KindBuild
	case has("run", "start", "serve", "dev", "watch", "exec", "preview"):
		return abi.KindRun
	}
	return abi.KindOther
}

// LineAt is the 1-based line of the byte offset off in data, counted from
// the start: for one offset of a file (NewLines numbers many).
func LineAt(data []byte, off int) int {
	if off < 0 {
		return 0
	}
	if off > len(data) {
		off = len(data)
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// Shell quotes an argument for a command line when it needs it.
func Shell(arg string) string {
	if arg != "" && !strings.ContainsAny(arg, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return arg
	}
	return "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
}

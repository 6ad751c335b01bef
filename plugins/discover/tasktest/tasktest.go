// Package tasktest checks discoverer results in the unit tests of the
// core-discover parsers against the fixture projects of the end-to-end
// tests (test/testdata/projects).
package tasktest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/jujutools/juju/plugins/discover/task"
)

// Project returns the folder of the fixture project name.
func Project(t testing.TB, name string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "test", "testdata", "projects", name)
}

// Write makes a fixture folder of files (path → content) and returns it.
func Write(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Format writes one task a line: name | runner | command | cwd |
// file:line | kind | description.
func Format(r *task.Result) string {
	var b strings.Builder
	for _, t := range r.Tasks {
		l := fmt.Sprintf("%s | %s | %s | %s | %s:%d | %s | %s", t.Name, t.Runner, t.Command, t.Cwd, t.File, t.Line, t.Kind, t.Description)
		b.WriteString(trim(l) + "\n")
	}
	return b.String()
}

// Check compares the tasks of r with want (Format's lines; leading and
// trailing blank lines and each line's outer spaces ignored) and its
// warnings with wantWarn ("file: a part of the message", one a line).
func Check(t *testing.T, r *task.Result, want, wantWarn string) {
	t.Helper()
	if got, w := Format(r), norm(want); got != w {
		t.Errorf("tasks:\n%s\nwant:\n%s", got, w)
	}
	var got []string
	for _, w := range r.Warnings {
		got = append(got, w.File+": "+w.Message)
	}
	wl := strings.Split(strings.TrimSpace(wantWarn), "\n")
	if strings.TrimSpace(wantWarn) == "" {
		wl = nil
	}
	if len(got) != len(wl) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wl, "\n"))
		return
	}
	for i := range wl {
		file, part, _ := strings.Cut(strings.TrimSpace(wl[i]), ": ")
		if !strings.HasPrefix(got[i], file+": ") || !strings.Contains(got[i], part) {
			t.Errorf("warning %d = %q, want %q", i, got[i], wl[i])
		}
	}
}

func norm(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l = trim(l); l != "" {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// trim drops outer spaces and an empty last column.
func trim(l string) string { return strings.TrimSuffix(strings.TrimSpace(l), " |") }

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// project_overview of a hostile workspace (the review's ws/mkbomb,
// ws/glob, ws/inj and ws/weird, made small): a Makefile whose include
// expands to 10^10 bytes, a workspace glob of 25 "**" with a package 14
// folders deep, Go main packages in folders whose names are shell code,
// a folder with a GNUmakefile beside a Makefile and one whose name is not
// UTF-8. Every discoverer finishes with its tasks, the names are quoted,
// and no warning is false.
func TestOverviewHostileWorkspace(t *testing.T) {
	mk := "A0 = " + strings.TrimSpace(strings.Repeat("xxxxxxxxxx ", 10)) + "\n"
	for i := 1; i <= 9; i++ {
		mk += fmt.Sprintf("A%d = %s\n", i, strings.Repeat(fmt.Sprintf("$(A%d)", i-1), 10))
	}
	mk += "include $(A9)\n.PHONY: build\nbuild:\n\techo hi\n"
	deep := "glob/" + strings.Repeat("d/", 14)
	root := workspace(t, map[string]string{
		"Makefile":                     mk,
		"glob/package.json":            `{"workspaces":["` + strings.Repeat("**/", 25) + `nomatch"]}`,
		deep + "package.json":          `{"scripts":{"x":"y"}}`,
		"go.mod":                       "module example.com/m\n",
		"cmd/x;touch ${HOME}x/main.go": "package main\n\nfunc main() {}\n",
		"cmd/my tool/main.go":          "package main\n\nfunc main() {}\n",
		"two/GNUmakefile":              ".PHONY: b\nb:\n\ttrue\n",
		"two/Makefile":                 ".PHONY: a\na:\n\ttrue\n",
	})
	bad := filepath.Join(root, "bad\xffdir")
	if err := os.Mkdir(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "package.json"), []byte(`{"scripts":{"z":"z"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, root, "--mode", "trusted")
	o, _ := s.overview(nil)
	got := o.taskLines()
	for _, want := range []string{
		"build | make | make build | . | Makefile:13 | build",
		"b | make | make b | two | two/GNUmakefile:2 | other",
		"x | npm | npm run x | " + strings.TrimSuffix(deep, "/") + " | " + deep + "package.json:1 | other | y",
		"run ./cmd/my tool | go | go run './cmd/my tool' | . | cmd/my tool/main.go:1 | run | main package example.com/m/cmd/my tool",
		"run ./cmd/x;touch ${HOME}x | go | go run './cmd/x;touch ${HOME}x' |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no task %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "make a |") {
		t.Errorf("two/Makefile's target is listed, but make reads two/GNUmakefile:\n%s", got)
	}
	w := o.warningLines()
	if len(o.Warnings) != 1 || !strings.Contains(w, "Makefile: line 11: the names expand to more than 1 MiB") {
		t.Errorf("warnings:\n%s", w)
	}
}

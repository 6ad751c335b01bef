package test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// project copies the fixture project name (test/testdata/projects) into a
// fresh folder and returns it.
func project(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join(repoRoot, "test", "testdata", "projects", name)
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// overviewResult is the structured content of project_overview.
type overviewResult struct {
	Files     int   `json:"files"`
	Bytes     int64 `json:"bytes"`
	Languages []struct {
		Name    string  `json:"name"`
		Files   int     `json:"files"`
		Bytes   int64   `json:"bytes"`
		Percent float64 `json:"percent"`
	} `json:"languages"`
	Git struct {
		Available  bool   `json:"available"`
		Repository bool   `json:"repository"`
		Branch     string `json:"branch"`
		Head       string `json:"head"`
		Staged     int    `json:"staged"`
		Modified   int    `json:"modified"`
		Untracked  int    `json:"untracked"`
		Clean      bool   `json:"clean"`
		Note       string `json:"note"`
	} `json:"git"`
	Instructions []string `json:"instructions"`
	Tasks        []struct {
		Name        string `json:"name"`
		Runner      string `json:"runner"`
		Command     string `json:"command"`
		Cwd         string `json:"cwd"`
		File        string `json:"file"`
		Line        int    `json:"line"`
		Description string `json:"description"`
		Kind        string `json:"kind"`
	} `json:"tasks"`
	Warnings []struct {
		File    string `json:"file"`
		Message string `json:"message"`
	} `json:"warnings"`
}

// overview calls project_overview, which must succeed, and decodes it.
func (s *session) overview(args map[string]any) (overviewResult, string) {
	s.t.Helper()
	res := s.call("project_overview", args)
	if res.IsError {
		s.t.Fatalf("project_overview failed: %s", text(res))
	}
	raw, err := json.Marshal(structured(s.t, res))
	if err != nil {
		s.t.Fatal(err)
	}
	var o overviewResult
	if err := json.Unmarshal(raw, &o); err != nil {
		s.t.Fatalf("structured content %s: %v", raw, err)
	}
	return o, text(res)
}

// taskLines formats tasks one a line, as the discoverer unit tests do.
func (o overviewResult) taskLines() string {
	var b strings.Builder
	for _, t := range o.Tasks {
		l := fmt.Sprintf("%s | %s | %s | %s | %s:%d | %s | %s", t.Name, t.Runner, t.Command, t.Cwd, t.File, t.Line, t.Kind, t.Description)
		b.WriteString(strings.TrimSuffix(strings.TrimSpace(l), " |") + "\n")
	}
	return b.String()
}

func (o overviewResult) warningLines() string {
	var b strings.Builder
	for _, w := range o.Warnings {
		fmt.Fprintf(&b, "%s: %s\n", w.File, w.Message)
	}
	return b.String()
}

// lines trims a literal table.
func lines(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

func checkTasks(t *testing.T, o overviewResult, want string) {
	t.Helper()
	if got := o.taskLines(); got != lines(want) {
		t.Errorf("tasks:\n%s\nwant:\n%s\nwarnings:\n%s", got, lines(want), o.warningLines())
	}
}

func TestOverviewMakefile(t *testing.T) {
	root := project(t, "make")
	s := start(t, root, "--mode", "trusted")
	o, txt := s.overview(nil)
	checkTasks(t, o, `
all | make | make all | . | Makefile:9 | other | build everything
build | make | make build | . | Makefile:12 | build | compile the binary
test | make | make test | . | Makefile:15 | test | run the tests
lint | make | make lint | . | Makefile:19 | lint
docs | make | make docs | . | common.mk:3 | other | build the documentation
run | make | make run | sub | sub/Makefile:1 | run | start the service
`)
	if len(o.Warnings) != 0 {
		t.Errorf("warnings: %s", o.warningLines())
	}
	for _, f := range []string{"pwned", "pwned2", "pwned3"} {
		if _, err := os.Lstat(filepath.Join(root, f)); err == nil {
			t.Errorf("%s exists: a $(shell …) of the Makefile ran", f)
		}
	}
	if !strings.Contains(txt, "make in .:") || !strings.Contains(txt, "make build — compile the binary") {
		t.Errorf("text does not group tasks by runner and folder:\n%s", txt)
	}
}

// gitRepo makes root a git repository with one commit and one untracked
// file.
func gitRepo(t *testing.T, root string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q", "-b", "trunk"},
		{"add", "-A"},
		{"-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "first commit"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(root, "new.txt"), []byte("x\n"), 0o644)
}

// TestOverviewFixtures runs project_overview on every fixture project and
// compares its tasks and warnings, exactly, with the project's golden file
// (test/testdata/projects/NAME.golden; -update rewrites them). The
// discoverer unit tests in plugins/discover check the same projects
// parser by parser.
func TestOverviewFixtures(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join(repoRoot, "test", "testdata", "projects"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			root := project(t, d.Name())
			s := start(t, root, "--mode", "trusted")
			o, _ := s.overview(nil)
			got := "-- tasks --\n" + o.taskLines() + "-- warnings --\n" + o.warningLines()
			golden := filepath.Join(repoRoot, "test", "testdata", "projects", d.Name()+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("project_overview of %s:\n%s\nwant (%s):\n%s", d.Name(), got, golden, want)
			}
		})
	}
}

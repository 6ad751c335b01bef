//go:build unix

package test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// diffCase is a folder of files before and after a change; the patch
// between them is made by git diff (with args) or GNU diff -u.
type diffCase struct {
	name          string
	before, after map[string]string // path in the case's folder → content; a "\x00x" prefix marks executable
	args          []string          // git diff's options
	gnu           bool              // made by diff -ruN a b, timestamps and all
	drift         func(string) string
	juju          string // where juju deliberately differs from git: the code it answers
}

const execMark = "\x00x"

// goSources reads a few files of Go's source tree, real text to mutate.
func goSources(t *testing.T) []string {
	root := filepath.Join(runtime.GOROOT(), "src")
	var out []string
	for _, p := range []string{"strings/strings.go", "bufio/scan.go", "sort/sort.go", "fmt/print.go", "bytes/buffer.go", "path/match.go"} {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Skipf("Go's sources: %v", err)
		}
		out = append(out, string(b))
	}
	return out
}

// textMutations are a file's text: lines changed, inserted, deleted, at its
// start, middle and end, and its last newline taken or given.
func textMutations(src string) map[string]func(string) string {
	lines := func(s string) []string { return strings.SplitAfter(s, "\n") }
	join := func(l []string) string { return strings.Join(l, "") }
	return map[string]func(string) string{
		"change-middle": func(s string) string {
			l := lines(s)
			l[len(l)/2] = "// changed\n"
			return join(l)
		},
		"insert-start": func(s string) string { return "// first\n// second\n" + s },
		"delete-start": func(s string) string { return join(lines(s)[3:]) },
		"append-end":   func(s string) string { return s + "// last\n" },
		"delete-end": func(s string) string {
			l := lines(s)
			return join(l[:len(l)-5])
		},
		"no-newline-after": func(s string) string { return strings.TrimSuffix(s, "\n") + "\n// tail" },
		"many": func(s string) string {
			l := lines(s)
			for i := 10; i < len(l); i += 37 {
				l[i] = "// " + strings.TrimSpace(l[i]) + " (edited)\n"
			}
			l = append(l[:50], l[58:]...)
			return join(l)
		},
	}
}

func diffCases(t *testing.T) []diffCase {
	var cs []diffCase
	srcs := goSources(t)
	names := []string{}
	muts := textMutations(srcs[0])
	for k := range muts {
		names = append(names, k)
	}
	sort.Strings(names)
	for i, src := range srcs {
		for _, m := range names {
			f := muts[m]
			cs = append(cs, diffCase{name: fmt.Sprintf("src%d-%s", i, m), before: map[string]string{"f.go": src}, after: map[string]string{"f.go": f(src)}})
			if i == 0 {
				cs = append(cs, diffCase{name: "u0-" + m, before: map[string]string{"f.go": src}, after: map[string]string{"f.go": f(src)}, args: []string{"-U0"}})
				cs = append(cs, diffCase{name: "gnu-" + m, before: map[string]string{"f.go": src}, after: map[string]string{"f.go": f(src)}, gnu: true})
				crlf := strings.ReplaceAll(src, "\n", "\r\n")
				cs = append(cs, diffCase{name: "crlf-" + m, before: map[string]string{"f.go": crlf}, after: map[string]string{"f.go": strings.ReplaceAll(f(src), "\n", "\r\n")}})
				cs = append(cs, diffCase{name: "nonl-before-" + m, before: map[string]string{"f.go": strings.TrimSuffix(src, "\n")}, after: map[string]string{"f.go": f(strings.TrimSuffix(src, "\n"))}})
				// The file moved on since the patch was made: lines above
				// the hunks were added, as a hunk found elsewhere.
				cs = append(cs, diffCase{name: "drift-" + m, before: map[string]string{"f.go": src}, after: map[string]string{"f.go": f(src)},
					drift: func(s string) string { return "// one\n// two\n// three\n" + s }})
			}
		}
	}
	small := srcs[5]
	cs = append(cs,
		diffCase{name: "create", before: map[string]string{"keep": "k\n"}, after: map[string]string{"keep": "k\n", "new.go": small}},
		diffCase{name: "delete", before: map[string]string{"keep": "k\n", "old.go": small}, after: map[string]string{"keep": "k\n"}},
		diffCase{name: "empty-to-content", before: map[string]string{"e": ""}, after: map[string]string{"e": "now\n"}},
		diffCase{name: "content-to-empty", before: map[string]string{"e": "was\n"}, after: map[string]string{"e": ""}},
		diffCase{name: "create-empty", before: map[string]string{"keep": "k\n"}, after: map[string]string{"keep": "k\n", "e": ""}},
		diffCase{name: "delete-empty", before: map[string]string{"keep": "k\n", "e": ""}, after: map[string]string{"keep": "k\n"}},
		diffCase{name: "rename-pure", before: map[string]string{"a.go": small}, after: map[string]string{"b.go": small}, args: []string{"-M"}},
		diffCase{name: "rename-edit", before: map[string]string{"a.go": small}, after: map[string]string{"sub/b.go": strings.Replace(small, "package path", "package path // moved", 1)}, args: []string{"-M"}},
		diffCase{name: "mode-x", before: map[string]string{"s.sh": "echo\n"}, after: map[string]string{"s.sh": execMark + "echo\n"}},
		diffCase{name: "mode-x-edit", before: map[string]string{"s.sh": "echo\n"}, after: map[string]string{"s.sh": execMark + "echo hi\n"}},
		diffCase{name: "mode-unx", before: map[string]string{"s.sh": execMark + "echo\n"}, after: map[string]string{"s.sh": "echo\n"}},
		diffCase{name: "create-x", before: map[string]string{"keep": "k\n"}, after: map[string]string{"keep": "k\n", "s.sh": execMark + "echo\n"}},
		diffCase{name: "binary", before: map[string]string{"b.bin": "\x00\x01\x02"}, after: map[string]string{"b.bin": "\x00\x01\x03"}, juju: "INVALID_ARGUMENT"},
		diffCase{name: "space name", before: map[string]string{"a file.txt": "x\n"}, after: map[string]string{"a file.txt": "y\n"}},
		diffCase{name: "space-rename", before: map[string]string{"a file.txt": small}, after: map[string]string{"b file.txt": small}, args: []string{"-M"}},
		diffCase{name: "unicode", before: map[string]string{"café.txt": "x\n"}, after: map[string]string{"café.txt": "y\n"}},
		diffCase{name: "unicode-rename", before: map[string]string{"café.txt": small}, after: map[string]string{"thé.txt": small}, args: []string{"-M"}},
		diffCase{name: "quote", before: map[string]string{`say "hi".txt`: "x\n"}, after: map[string]string{`say "hi".txt`: "y\n"}},
		diffCase{name: "tab", before: map[string]string{"a\tb.txt": "x\n"}, after: map[string]string{"a\tb.txt": "y\n"}},
		diffCase{name: "backslash", before: map[string]string{`a\b.txt`: "x\n"}, after: map[string]string{`a\b.txt`: "y\n"}},
		diffCase{name: "gnu-create", before: map[string]string{"keep": "k\n"}, after: map[string]string{"keep": "k\n", "new.go": small}, gnu: true},
		diffCase{name: "gnu-delete", before: map[string]string{"keep": "k\n", "old.go": small}, after: map[string]string{"keep": "k\n"}, gnu: true},
		diffCase{name: "gnu-nonl", before: map[string]string{"f": "a\nb"}, after: map[string]string{"f": "a\nc"}, gnu: true},
		diffCase{name: "gnu-crlf", before: map[string]string{"f": "a\r\nb\r\nc\r\n"}, after: map[string]string{"f": "a\r\nB\r\nc\r\n"}, gnu: true},
		diffCase{name: "nonl-both", before: map[string]string{"f": "a\nb"}, after: map[string]string{"f": "a\nc"}},
		// Mixed line ends: the file's carriage returns are its text, and git
		// diff writes them into the hunk's lines; juju read every hunk
		// line without its CR and answered CONFLICT.
		diffCase{name: "mixed-eol", before: map[string]string{"f": "a\r\nb\nc\r\nd\n"}, after: map[string]string{"f": "a\r\nB\nc\r\nd\n"}},
		diffCase{name: "mixed-eol-crlf-line", before: map[string]string{"f": "a\r\nb\nc\r\nd\n"}, after: map[string]string{"f": "a\r\nb\nC\r\nnew\r\nd\n"}},
		diffCase{name: "mixed-eol-nonl", before: map[string]string{"f": "a\nb\r\nc\r"}, after: map[string]string{"f": "a\nB\r\nc\r"}},
		// A context line changed since: git refuses, juju answers CONFLICT
		// and writes neither file.
		diffCase{name: "stale-context", before: map[string]string{"f": "1\n2\n3\n4\n5\n6\n7\n", "g": "x\n"}, after: map[string]string{"f": "1\n2\n3\nfour\n5\n6\n7\n", "g": "y\n"},
			drift: func(s string) string { return strings.Replace(s, "5\n", "five\n", 1) }},
		diffCase{name: "gnu-space name", before: map[string]string{"a file.txt": "x\n"}, after: map[string]string{"a file.txt": "y\n"}, gnu: true},
	)
	return cs
}

func writeCase(t *testing.T, dir string, files map[string]string) {
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := fs.FileMode(0o644)
		if c2, ok := strings.CutPrefix(c, execMark); ok {
			c, mode = c2, 0o755
		}
		if err := os.WriteFile(full, []byte(c), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(full, mode); err != nil {
			t.Fatal(err)
		}
	}
}

// caseTree reads a folder: path → content, executable files marked.
func caseTree(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		info, _ := d.Info()
		c := string(b)
		if info.Mode()&0o100 != 0 {
			c = execMark + c
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = c
		return nil
	})
	return out
}

// makePatch writes c's files before and after in scratch folders and
// returns the patch between them, its paths under the case's folder.
func makePatch(t *testing.T, c diffCase, folder string) string {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	s := t.TempDir()
	if c.gnu {
		writeCase(t, filepath.Join(s, "a", folder), c.before)
		writeCase(t, filepath.Join(s, "b", folder), c.after)
		cmd := exec.Command("diff", "-ruN", "a", "b")
		cmd.Dir = s
		out, _ := cmd.Output() // exit 1: they differ
		return string(out)
	}
	writeCase(t, filepath.Join(s, folder), c.before)
	gitIn(t, s, "init", "-q")
	gitIn(t, s, "add", "-A")
	gitIn(t, s, "commit", "-qm", "before")
	os.RemoveAll(filepath.Join(s, folder))
	writeCase(t, filepath.Join(s, folder), c.after)
	gitIn(t, s, "add", "-A")
	return gitIn(t, s, append([]string{"diff", "--cached"}, c.args...)...)
}

// Differential: each patch git diff (or diff -u) makes between real files
// and their variants, applied by juju's apply_patch through the binary
// and by git apply to the same files, leaves the same files, or is
// refused by both (and juju then writes nothing); where juju refuses on
// purpose (a binary patch), it refuses. juju's own diff of each change
// applies in reverse with git apply to what it wrote.
func TestApplyPatchMatchesGitApply(t *testing.T) {
	cases := diffCases(t)
	jroot := workspace(t, nil)
	groot := t.TempDir()
	patches := make([]string, len(cases))
	for i, c := range cases {
		folder := fmt.Sprintf("c%03d", i)
		patches[i] = makePatch(t, c, folder)
		before := c.before
		if c.drift != nil {
			before = map[string]string{}
			for p, v := range c.before {
				before[p] = c.drift(v)
			}
		}
		writeCase(t, filepath.Join(jroot, folder), before)
		writeCase(t, filepath.Join(groot, folder), before)
	}
	s := start(t, jroot, "--mode", "trusted")
	for i, c := range cases {
		folder := fmt.Sprintf("c%03d", i)
		t.Run(c.name, func(t *testing.T) {
			patch := patches[i]
			if patch == "" {
				t.Fatal("no patch made")
			}
			gitArgs := []string{"apply"}
			if len(c.args) > 0 && c.args[0] == "-U0" {
				// git apply takes hunks without context only so; juju
				// places them where they say (TestApplyPatchInsertionsAndCodex).
				gitArgs = append(gitArgs, "--unidiff-zero")
			}
			cmd := exec.Command("git", append(gitArgs, "-")...)
			cmd.Dir = groot
			cmd.Stdin = strings.NewReader(patch)
			gout, gerr := cmd.CombinedOutput()
			jbefore := caseTree(t, filepath.Join(jroot, folder))
			res := s.with(t).call("apply_patch", map[string]any{"patch": patch})
			jafter := caseTree(t, filepath.Join(jroot, folder))
			gafter := caseTree(t, filepath.Join(groot, folder))
			switch {
			case c.juju != "":
				if !res.IsError || structured(t, res)["code"] != c.juju {
					t.Fatalf("juju: want %s, got %s", c.juju, text(res))
				}
				if !equalTrees(jbefore, jafter) {
					t.Fatal("a refused patch wrote")
				}
			case gerr != nil:
				if !res.IsError {
					t.Fatalf("git apply refused (%s) but juju applied:\n%s", gout, patch)
				}
				if !equalTrees(jbefore, jafter) {
					t.Fatal("a refused patch wrote")
				}
			case res.IsError:
				t.Fatalf("git apply applied, juju refused: %s\npatch:\n%s", text(res), clipText(patch))
			default:
				if !equalTrees(jafter, gafter) {
					t.Fatalf("juju and git differ:\n%s\npatch:\n%s", treeDiff(jafter, gafter), clipText(patch))
				}
				// juju's own diff of the change takes it back with git
				// apply -R, and apply_patch makes it again.
				d, _ := structured(t, res)["diff"].(string)
				if d != "" && !strings.Contains(d, "Binary") {
					cmd := exec.Command("git", "apply", "-R", "-")
					cmd.Dir = jroot
					cmd.Stdin = strings.NewReader(d)
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("git apply -R refuses juju's diff: %v %s\n%s", err, out, clipText(d))
					}
					if back := caseTree(t, filepath.Join(jroot, folder)); !equalTrees(back, jbefore) {
						t.Fatalf("juju's diff, reversed by git, left:\n%s", treeDiff(back, jbefore))
					}
					if again := s.with(t).call("apply_patch", map[string]any{"patch": d}); again.IsError {
						t.Fatalf("apply_patch refuses juju's own diff: %s\n%s", text(again), clipText(d))
					}
					if again := caseTree(t, filepath.Join(jroot, folder)); !equalTrees(again, gafter) {
						t.Fatalf("juju's own diff applied by juju:\n%s", treeDiff(again, gafter))
					}
				}
			}
		})
	}
}

func clipText(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func treeDiff(j, g map[string]string) string {
	var b bytes.Buffer
	for k, v := range j {
		w, ok := g[k]
		switch {
		case !ok:
			fmt.Fprintf(&b, "only juju has %q\n", k)
		case v != w:
			fmt.Fprintf(&b, "%q: juju %q…, git %q…\n", k, clipText(v)[:min(len(v), 200)], clipText(w)[:min(len(w), 200)])
		}
	}
	for k := range g {
		if _, ok := j[k]; !ok {
			fmt.Fprintf(&b, "only git has %q\n", k)
		}
	}
	return b.String()
}

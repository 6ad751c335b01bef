//go:build unix

package exec

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestGitStatusLettersAreNamed: every letter git_status returns for a
// real repository in a merge conflict, with a type change, is one its
// schema names, so the model can read UU as a conflict.
func TestGitStatusLettersAreNamed(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=o", "GIT_AUTHOR_EMAIL=o@example.com", "GIT_COMMITTER_NAME=o", "GIT_COMMITTER_EMAIL=o@example.com")
		cmd.CombinedOutput() // the merge fails, as it must
	}
	put := func(name, content string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("f.txt", "base\n")
	put("g.txt", "g\n")
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-q", "-m", "base")
	git("checkout", "-q", "-b", "other")
	put("f.txt", "other\n")
	git("commit", "-q", "-am", "other")
	git("checkout", "-q", "main")
	put("f.txt", "mine\n")
	git("commit", "-q", "-am", "mine")
	git("merge", "other")
	os.Remove(filepath.Join(root, "g.txt"))
	if err := os.Symlink("f.txt", filepath.Join(root, "g.txt")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "status", "--porcelain=v1", "-z", "--branch", "--untracked-files=all")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	f, _ := reflect.TypeOf(GitFileInfo{}).FieldByName("Staged")
	desc := f.Tag.Get("desc")
	seen := map[string]bool{}
	for _, file := range parseStatus(out).Files {
		for _, l := range []string{file.Staged, file.Unstaged} {
			seen[l] = true
			if l != " " && !strings.Contains(desc, l+" ") {
				t.Errorf("%s: letter %q is not named in %q", file.Path, l, desc)
			}
		}
	}
	if !seen["U"] || !seen["T"] {
		t.Fatalf("the repository shows no conflict and no type change: %q", out)
	}
}

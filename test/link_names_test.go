package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The names that symbolic links' targets add to one resolution are
// bounded as a path's own are: each name is resolved by juju on its own,
// and a repository's links of 4,000 bytes each ("d/../d/../…") chained 40
// deep made one read walk 62,000 names (0.6 s), and a folder of 100 links
// to that chain made list_directory and glob_files fail at the plugin's
// time limit. An ordinary chain of links still resolves.
func TestLinkTargetsAddBoundedNames(t *testing.T) {
	root := workspace(t, map[string]string{"d/keep": "", "target.txt": "hi\n", "a/b/c/real.txt": "real\n"})
	long := strings.Repeat("d/../", 100) // 200 names
	prev := "target.txt"
	for i := range 3 {
		name := fmt.Sprintf("l%d", i)
		if err := os.Symlink(long+prev, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
		prev = name
	}
	// 30 links of a few names each, as a package manager makes them.
	prev = "a/b/c/real.txt"
	for i := range 30 {
		name := fmt.Sprintf("c%d", i)
		if err := os.Symlink("./"+prev, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
		prev = name
	}
	if err := os.Mkdir(filepath.Join(root, "many"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if err := os.Symlink("../l2", filepath.Join(root, "many", fmt.Sprint("x", i))); err != nil {
			t.Fatal(err)
		}
	}
	s := start(t, root)
	msg := s.fail("read_file", map[string]any{"path": "l2"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "more than 256 names") {
		t.Errorf("the refusal does not say why: %s", msg)
	}
	s.fail("file_info", map[string]any{"path": "many/x3"}, "INVALID_ARGUMENT")
	if got := s.ok("read_file", map[string]any{"path": "l0"}); got != "hi\n" {
		t.Errorf("one link of 200 names read %q", got)
	}
	if got := s.ok("read_file", map[string]any{"path": prev}); got != "real\n" {
		t.Errorf("a chain of 30 short links read %q", got)
	}
	if got := s.ok("list_directory", map[string]any{"path": "many"}); !strings.Contains(got, "x3 -> (broken") {
		t.Errorf("the links are not listed as broken:\n%s", got)
	}
}

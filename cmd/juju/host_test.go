package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// juju's own PATH loses the folders inside the roots, where a confined
// command could put a bwrap, git or gopls of its own; commands keep the
// PATH juju started with.
func TestTrimPath(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	link := filepath.Join(outside, "to-root-bin")
	os.MkdirAll(filepath.Join(root, "bin"), 0o755)
	os.Symlink(filepath.Join(root, "bin"), link)
	path := strings.Join([]string{"/usr/bin", filepath.Join(root, "bin"), link, "relative/bin", "", outside}, string(filepath.ListSeparator))
	t.Setenv("PATH", path)
	env := trimPath([]string{root}, quietLogger())
	if got := os.Getenv("PATH"); got != "/usr/bin"+string(filepath.ListSeparator)+outside {
		t.Errorf("juju's PATH is %q", got)
	}
	if !slices.Contains(env, "PATH="+path) {
		t.Errorf("the commands' environment lost its PATH: %q", env)
	}
}

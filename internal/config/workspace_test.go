package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWorkspaceKeyedByRealRoots(t *testing.T) {
	d := Dirs{State: "/state"}
	base := t.TempDir()
	real := filepath.Join(base, "my project")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	a, b := d.Workspace([]string{real}), d.Workspace([]string{link + "/"})
	if a != b {
		t.Errorf("a root and a symlink to it got different state: %s, %s", a, b)
	}
	if !strings.HasPrefix(a, "/state/workspaces/my_project-") {
		t.Errorf("state folder %s is not named after the root", a)
	}
	if other := d.Workspace([]string{real, base}); other == a {
		t.Error("a second root did not change the state folder")
	}
	if got := safeName(".."); got != "w.." {
		t.Errorf("safeName(..) = %q", got)
	}
}

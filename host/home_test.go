package host

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jujutools/juju/internal/policy"
)

func TestRootHoldingHome(t *testing.T) {
	root := t.TempDir()
	pol, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer pol.Close()
	home := filepath.Join(root, "home", "owner")
	os.MkdirAll(home, 0o755)
	t.Setenv("HOME", home)
	if got := rootHoldingHome(pol); got != pol.Roots()[0].Real {
		t.Errorf("home inside the root: %q", got)
	}
	t.Setenv("HOME", t.TempDir())
	if got := rootHoldingHome(pol); got != "" {
		t.Errorf("home outside the root: %q", got)
	}
}
